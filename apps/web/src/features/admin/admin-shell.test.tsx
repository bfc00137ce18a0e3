import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route, Routes } from 'react-router';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../test/test-utils';
import { saveSessionToken } from '../../lib/session-storage';
import AdminShell from './admin-shell';

const user = (role: 'admin' | 'customer') => ({
  _id: 'user-1',
  email: role === 'admin' ? 'admin@offzero.local' : 'ada@example.com',
  firstName: '',
  lastName: '',
  phoneNumber: null,
  email_verified: true,
  phone_verified: true,
  image: null,
  role,
});

let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

beforeEach(() => {
  fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>();
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken('user-1'));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function renderAt(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/admin" element={<AdminShell />}>
        <Route index element={<p>the work queue</p>} />
        <Route path="security" element={<p>the security page</p>} />
      </Route>
    </Routes>,
    { route: path },
  );
}

describe('AdminShell', () => {
  it('shows a customer "Not authorised" and nothing of the console', async () => {
    fetchMock.mockImplementation(async (url) =>
      url === '/api/user/user-1'
        ? jsonResponse({ user: user('customer') })
        : jsonResponse({ message: 'This area is for OffZero staff only.' }, 403),
    );
    renderAt('/admin');
    expect(await screen.findByRole('heading', { name: 'Not authorised' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/dashboard');
    expect(screen.queryByText('the work queue')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Back office' })).not.toBeInTheDocument();
    // No back-office data was even asked for.
    expect(fetchMock.mock.calls.map(([url]) => url).filter((url) => url.startsWith('/api/admin'))).toEqual(
      [],
    );
  });

  it('gives an admin the console with its sections', async () => {
    fetchMock.mockImplementation(async (url) => {
      if (url === '/api/user/user-1') return jsonResponse({ user: user('admin') });
      if (url === '/api/admin/queue')
        return jsonResponse({
          paymentsToCheck: [],
          bitcoinToSend: [],
          sellPayoutsDue: [],
          flagged: [],
          alerts: [],
        });
      if (url.startsWith('/api/admin/kyc')) return jsonResponse({ cases: [] });
      if (url === '/api/admin/mfa') return jsonResponse({ enrolled: false, required: false });
      return jsonResponse({ message: 'unexpected' }, 500);
    });
    renderAt('/admin');
    expect(await screen.findByText('the work queue')).toBeInTheDocument();
    const nav = screen.getAllByRole('navigation', { name: 'Back office' })[0]!;
    for (const name of [
      'Work queue',
      'Orders',
      'KYC review',
      'Customers',
      'Settings',
      'Audit log',
      'Security',
      'Customer dashboard',
    ]) {
      expect(nav).toHaveTextContent(name);
    }
  });

  it('sends an admin who must set up two-factor authentication to the security page first', async () => {
    fetchMock.mockImplementation(async (url) => {
      if (url === '/api/user/user-1') return jsonResponse({ user: user('admin') });
      if (url === '/api/admin/mfa') return jsonResponse({ enrolled: false, required: true });
      return jsonResponse(
        { message: 'Set up two-factor authentication first.', code: 'MFA_ENROLMENT_REQUIRED' },
        403,
      );
    });
    renderAt('/admin');
    expect(await screen.findByText('the security page')).toBeInTheDocument();
    expect(screen.queryByText('the work queue')).not.toBeInTheDocument();
  });
});
