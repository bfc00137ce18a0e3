import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { clearSession, getSession, saveCsrfToken } from '../../../lib/session-storage';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { PasskeySecondFactorButton, PasskeySignInButton } from './passkey-sign-in';

const startAuthentication = vi.fn();
vi.mock('@simplewebauthn/browser', () => ({ startAuthentication }));

const user = {
  _id: 'admin-1',
  email: 'ada@example.com',
  firstName: 'Ada',
  lastName: 'Lovelace',
  phoneNumber: null,
  email_verified: true,
  phone_verified: false,
  image: null,
  role: 'admin',
};
let calls: { url: string; body: unknown }[];

beforeEach(() => {
  calls = [];
  clearSession();
  saveCsrfToken('csrf-1');
  startAuthentication.mockReset();
  vi.spyOn(toast, 'success');
  vi.spyOn(toast, 'error');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: JSON.parse(init?.body as string) as unknown });
      if (url.endsWith('/options')) return jsonResponse({ options: { challenge: 'c' } });
      return jsonResponse({ message: 'Welcome back.', token: fakeSessionToken('admin-1'), user });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('passkey sign-in buttons', () => {
  it('signs in with the passkey the browser offers and keeps the session', async () => {
    startAuthentication.mockResolvedValue({ id: 'cred-1' });
    renderWithProviders(<PasskeySignInButton />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));

    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Welcome back.'));
    expect(getSession()?.userId).toBe('admin-1');
    expect(calls.map((call) => call.url)).toEqual(['/api/auth/passkey/options', '/api/auth/passkey/verify']);
  });

  it("binds an admin's second step to its token and signs in", async () => {
    startAuthentication.mockResolvedValue({ id: 'cred-1' });
    renderWithProviders(<PasskeySecondFactorButton mfaToken="mfa-1" />);
    await userEvent.click(screen.getByRole('button', { name: 'Use a passkey instead' }));

    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Welcome back.'));
    expect(getSession()?.userId).toBe('admin-1');
    expect(calls).toEqual([
      { url: '/api/user/login-mfa/passkey/options', body: { mfaToken: 'mfa-1' } },
      { url: '/api/user/login-mfa/passkey/verify', body: { mfaToken: 'mfa-1', response: { id: 'cred-1' } } },
    ]);
  });

  it('says in a short note that no passkey was used when the browser dialog is closed', async () => {
    // As @simplewebauthn/browser reports it: an Error named after the browser's DOMException.
    startAuthentication.mockRejectedValue(Object.assign(new Error('closed'), { name: 'NotAllowedError' }));
    renderWithProviders(<PasskeySecondFactorButton mfaToken="mfa-1" />);
    await userEvent.click(screen.getByRole('button', { name: 'Use a passkey instead' }));

    await vi.waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(
        'No passkey was used. Try again, or log in with an e-mail code.',
      ),
    );
    expect(getSession()).toBeNull();
    expect(calls.map((call) => call.url)).toEqual(['/api/user/login-mfa/passkey/options']);
  });

  it("shows the server's refusal when the passkey is not accepted", async () => {
    startAuthentication.mockResolvedValue({ id: 'cred-1' });
    vi.mocked(fetch).mockImplementation(async (url) =>
      (url as string).endsWith('/options')
        ? jsonResponse({ options: { challenge: 'c' } })
        : jsonResponse({ message: 'This passkey could not sign you in.', code: 'UNAUTHENTICATED' }, 401),
    );
    renderWithProviders(<PasskeySignInButton />);
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));

    await vi.waitFor(() => expect(toast.error).toHaveBeenCalledWith('This passkey could not sign you in.'));
    expect(getSession()).toBeNull();
  });
});
