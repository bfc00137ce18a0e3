import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@offzero/shared/api/accounts';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import { ChangeEmailModal } from './change-email-modal';

const ada: User = {
  _id: 'user-1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phoneNumber: '+12025550101',
  email_verified: true,
  phone_verified: true,
  image: null,
  role: 'customer',
};

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>(async (url) => {
    if (url === '/api/user/step-up/send') return jsonResponse({ message: 'We sent a security code.' });
    if (url === '/api/user/email/change')
      return jsonResponse({ message: 'We sent a 6-digit code to new@example.com.' });
    if (url === '/api/user/email/change/verify')
      return jsonResponse({ message: 'Your email is changed.', user: { ...ada, email: 'new@example.com' } });
    return jsonResponse({ messages: [] });
  });
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('user-1'));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const bodyOf = (url: string) =>
  JSON.parse(fetchMock.mock.calls.find(([called]) => called === url)![1]!.body as string) as Record<
    string,
    string
  >;

describe('ChangeEmailModal', () => {
  it('asks for the security code first, then the new address and its code', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(<ChangeEmailModal user={ada} open onClose={onClose} />);
    expect(screen.queryByLabelText('New email')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send security code' }));
    await user.type(await screen.findByLabelText(/code/i), '135790');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await user.type(await screen.findByLabelText('New email'), 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await vi.waitFor(() =>
      expect(bodyOf('/api/user/email/change')).toEqual({ newEmail: 'new@example.com', stepUpCode: '135790' }),
    );

    await user.type(await screen.findByLabelText(/code/i), '246802');
    await user.click(screen.getByRole('button', { name: 'Change email' }));
    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodyOf('/api/user/email/change/verify')).toEqual({ newEmail: 'new@example.com', code: '246802' });
  });
});
