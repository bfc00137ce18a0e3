import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../test/test-utils';
import { saveCsrfToken } from '../../lib/session-storage';
import LoginPage from './login-page';

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const ADMIN = {
  _id: 'admin-1',
  email: 'admin@offzero.local',
  firstName: 'Demo',
  lastName: 'Operator',
  phoneNumber: null,
  email_verified: true,
  phone_verified: false,
  image: null,
  role: 'admin',
};

/** The demo hint asks the demo outbox for codes; these tests answer it with nothing. */
function answer(url: string, body: unknown, status = 200) {
  fetchMock.mockImplementation((input: string) =>
    Promise.resolve(input === url ? jsonResponse(body, status) : jsonResponse({ messages: [] })),
  );
}

describe('LoginPage', () => {
  it('asks an admin with two-factor authentication for the authenticator code, then logs in', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LoginPage />, { route: '/login' });
    answer('/api/user/login-otp/send', { message: 'If an account exists for this email, we sent a code.' });
    await user.type(screen.getByLabelText('Email'), 'admin@offzero.local');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByText('OTP Verification');

    answer('/api/user/login-otp/verify', {
      message: 'Enter the code from your authenticator app.',
      mfaRequired: true,
      mfaToken: 'mfa-token-1',
    });
    await user.type(screen.getByLabelText(/code/i), '123456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Two-factor authentication')).toBeInTheDocument();

    answer('/api/user/login-mfa/verify', {
      message: 'Logged in.',
      token: fakeSessionToken('admin-1'),
      user: ADMIN,
    });
    await user.type(screen.getByLabelText(/code/i), '654321');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await vi.waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/user/login-mfa/verify',
        expect.objectContaining({ body: JSON.stringify({ mfaToken: 'mfa-token-1', code: '654321' }) }),
      ),
    );
  });

  it('says the session ended and, after logging in, goes back to the page the customer was on', async () => {
    const user = userEvent.setup();
    renderWithProviders(
      <Routes>
        <Route path="/login" element={<LoginPage />} />
        <Route path="/orders" element={<h1>My Orders</h1>} />
        <Route path="/dashboard" element={<h1>Dashboard</h1>} />
      </Routes>,
      { route: '/login?session=ended&next=%2Forders' },
    );
    expect(screen.getByRole('status')).toHaveTextContent(
      'Your session ended. Log in again and we take you back to where you were.',
    );
    answer('/api/user/login-otp/send', { message: 'If an account exists for this email, we sent a code.' });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send code' }));
    await screen.findByText('OTP Verification');
    answer('/api/user/login-otp/verify', {
      message: 'Logged in.',
      token: fakeSessionToken('user-1'),
      user: { ...ADMIN, _id: 'user-1', email: 'ada@example.com', role: 'customer' },
    });
    await user.type(screen.getByLabelText(/code/i), '123456');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('heading', { name: 'My Orders' })).toBeInTheDocument();
  });
});
