import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Passkey } from '@offzero/shared/api/passkeys';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { PasskeysCard } from './passkeys-card';

const startRegistration = vi.fn();
const startAuthentication = vi.fn();
vi.mock('@simplewebauthn/browser', () => ({ startRegistration, startAuthentication }));

const passkey = (overrides: Partial<Passkey>): Passkey => ({
  id: 'p-1',
  name: 'Laptop',
  createdAt: '2026-11-20T09:00:00.000Z',
  lastUsedAt: null,
  backedUp: false,
  ...overrides,
});

let list: Passkey[];
let holdUntil: string | null;
let calls: { method: string; url: string; body: unknown; stepUp: string | undefined }[];

beforeEach(() => {
  list = [];
  holdUntil = null;
  calls = [];
  startRegistration.mockReset();
  startAuthentication.mockReset();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      const stepUp = (init?.headers as Record<string, string> | undefined)?.['X-Step-Up'];
      calls.push({ method, url, body, stepUp });
      if (url === '/api/passkeys' && method === 'GET')
        return jsonResponse({ passkeys: list, payoutHoldUntil: holdUntil });
      if (url === '/api/passkeys/registration/options')
        return jsonResponse({ options: { challenge: 'reg' } });
      if (url === '/api/passkeys/registration/verify') {
        const added = passkey({ id: 'p-new', name: 'My phone' });
        list = [...list, added];
        return jsonResponse({ message: 'Passkey added.', passkey: added });
      }
      if (url === '/api/step-up/options') return jsonResponse({ options: { challenge: 'step' } });
      if (url === '/api/passkeys/p-1' && method === 'DELETE') {
        if (!stepUp) {
          return jsonResponse(
            { message: 'Confirm this change with your passkey.', code: 'PASSKEY_STEP_UP_REQUIRED' },
            403,
          );
        }
        list = [];
        return jsonResponse({ message: 'Passkey removed.', passkey: passkey({}) });
      }
      return jsonResponse({ message: 'unexpected' }, 404);
    }),
  );
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => vi.unstubAllGlobals());

describe('PasskeysCard', () => {
  it('adds a passkey with its name: the browser makes it, the server checks it', async () => {
    startRegistration.mockResolvedValueOnce({ id: 'cred-1', response: {} });
    renderWithProviders(<PasskeysCard />);
    const card = await screen.findByTestId('passkeys-card');
    expect(await within(card).findByText('No passkeys yet.')).toBeInTheDocument();
    await userEvent.type(within(card).getByLabelText('Passkey name'), 'My phone');
    await userEvent.click(within(card).getByRole('button', { name: 'Add passkey' }));
    expect(await within(card).findByText('My phone')).toBeInTheDocument();
    expect(startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'reg' } });
    expect(calls.find((call) => call.url === '/api/passkeys/registration/options')?.body).toEqual({
      name: 'My phone',
    });
    expect(calls.find((call) => call.url === '/api/passkeys/registration/verify')?.body).toEqual({
      response: { id: 'cred-1', response: {} },
    });
  });

  it('refuses an empty name before asking the browser', async () => {
    renderWithProviders(<PasskeysCard />);
    const card = await screen.findByTestId('passkeys-card');
    await userEvent.click(within(card).getByRole('button', { name: 'Add passkey' }));
    expect(await within(card).findByText('Give the passkey a name, like "My phone".')).toBeInTheDocument();
    expect(startRegistration).not.toHaveBeenCalled();
  });

  it('removes a passkey after confirming with one, and shows a recovery hold', async () => {
    list = [passkey({})];
    holdUntil = '2026-12-01T10:00:00.000Z';
    startAuthentication.mockResolvedValueOnce({ id: 'cred-1', response: { clientDataJSON: 'x' } });
    renderWithProviders(<PasskeysCard />);
    const card = await screen.findByTestId('passkeys-card');
    expect(await within(card).findByRole('status')).toHaveTextContent(
      'New payout addresses can receive payouts from',
    );
    await userEvent.click(await within(card).findByRole('button', { name: 'Remove Laptop' }));
    expect(await within(card).findByText('No passkeys yet.')).toBeInTheDocument();
    const deletes = calls.filter((call) => call.method === 'DELETE');
    expect(deletes.map((call) => Boolean(call.stepUp))).toEqual([false, true]);
    expect(calls.find((call) => call.url === '/api/step-up/options')?.body).toEqual({
      action: 'passkey.remove',
      details: { id: 'p-1' },
    });
  });
});
