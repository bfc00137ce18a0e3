import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import {
  fakeSessionToken,
  jsonResponse,
  newCustomerSettings,
  renderWithProviders,
} from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { useUserSettings } from '../../../domain/user-settings';
import { EMAIL_PREFERENCE_ERROR, NotificationsCard, SMS_PREFERENCE_ERROR } from './notifications-card';

const settings = newCustomerSettings;

/** What the server has stored; a test changes it when the server accepted a change. */
let serverSettings: UserSettings;
let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;
/** The answer to the next save, resolved by the test when it wants the server to answer. */
let answerSave: (response: Response) => void;

beforeEach(() => {
  serverSettings = { ...settings };
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>(async (input) => {
    if (input.startsWith('/api/user/settings?')) return jsonResponse({ settings: serverSettings });
    if (input === '/api/user/settings/save') {
      return new Promise<Response>((resolve) => {
        answerSave = resolve;
      });
    }
    return jsonResponse({ message: 'unexpected' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
  vi.spyOn(toast, 'success');
  vi.spyOn(toast, 'error');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function Harness() {
  const { data } = useUserSettings();
  return data ? <NotificationsCard receiveEmail={data.receiveEmail} receiveSMS={data.receiveSMS} /> : null;
}

async function renderCard() {
  renderWithProviders(<Harness />);
  return {
    user: userEvent.setup(),
    email: await screen.findByRole('switch', { name: 'Email notifications' }),
    sms: screen.getByRole('switch', { name: 'SMS notifications' }),
  };
}

describe('NotificationsCard', () => {
  it('does not flip a switch before the server answers, and shows the fallback error on failure', async () => {
    const { user, email } = await renderCard();
    expect(email).toHaveAttribute('aria-checked', 'true');

    await user.click(email);
    // Waiting for the server: still the stored value, and no second click possible.
    expect(email).toHaveAttribute('aria-checked', 'true');
    expect(email).toBeDisabled();
    const saveCall = fetchMock.mock.calls.find(([url]) => url === '/api/user/settings/save');
    expect(JSON.parse(saveCall?.[1]?.body as string)).toEqual({ userId: 'user-1', receiveEmail: false });

    // The server fails without a message of its own.
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    answerSave(new Response('', { status: 500 }));

    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith(EMAIL_PREFERENCE_ERROR));
    expect(email).toHaveAttribute('aria-checked', 'true');
    await vi.waitFor(() => expect(email).toBeEnabled());
  });

  it('shows the server message when there is one', async () => {
    const { user, sms } = await renderCard();
    await user.click(sms);
    answerSave(jsonResponse({ message: 'Saving is paused for maintenance.' }, 503));
    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('Saving is paused for maintenance.'));
    expect(toast.error).not.toHaveBeenCalledWith(SMS_PREFERENCE_ERROR);
    expect(sms).toHaveAttribute('aria-checked', 'false');
  });

  it('flips once the server answered 200', async () => {
    const { user, sms } = await renderCard();
    await user.click(sms);
    expect(sms).toHaveAttribute('aria-checked', 'false');

    serverSettings.receiveSMS = true;
    answerSave(jsonResponse({ message: 'SMS notifications are on.' }));
    await vi.waitFor(() => expect(sms).toHaveAttribute('aria-checked', 'true'));
    expect(toast.success).toHaveBeenCalledWith('SMS notifications are on.');
  });
});
