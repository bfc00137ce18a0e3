import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, saveCsrfToken, saveSessionToken } from '../../lib/session-storage';
import { stubCustomerReads } from '../../test/customer-reads';
import { fakeSessionToken, renderWithProviders } from '../../test/test-utils';
import { verifiedUser } from '../../test/trade-fixtures';
import DashboardPage from './dashboard';

// The dashboard shows its tiles once the profile is in, and its trade widget once the order list is
// (to resume a pending order), but their reads go out with the profile's, not a round trip after it.

const ownProfile = `/api/user/${verifiedUser._id}`;
const ownKyc = `/api/kyc/${verifiedUser._id}`;
let api: ReturnType<typeof stubCustomerReads>;

beforeEach(() => {
  api = stubCustomerReads({ held: [ownProfile, '/api/order/list'] });
  saveSessionToken(fakeSessionToken(verifiedUser._id));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

describe('the dashboard’s reads', () => {
  it('asks for the KYC record, the settings and the trade widget’s reads while the profile is on its way', async () => {
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });

    await vi.waitFor(() => {
      for (const path of [ownKyc, '/api/user/settings', '/api/admin/settings', '/api/limits']) {
        expect(api.requested(path), path).toBe(1);
      }
      expect(api.requested('/api/payout-addresses')).toBe(1);
    });
    expect(screen.queryByRole('heading', { name: 'Welcome, Ada' })).toBeNull();

    api.release(ownProfile);
    api.release('/api/order/list');
    await screen.findByTestId('remaining-limit', undefined, { timeout: 5_000 });
    // The tiles and the widget used the answers already read.
    expect(api.requested(ownKyc)).toBe(1);
    expect(api.requested('/api/user/settings')).toBe(1);
    expect(api.requested('/api/admin/settings')).toBe(1);
  });

  it('asks for the trade widget’s terms, limits and address book while the order list is on its way', async () => {
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    api.release(ownProfile);
    await screen.findByRole('heading', { name: 'Welcome, Ada' });

    await vi.waitFor(() => {
      expect(api.requested('/api/admin/settings')).toBe(1);
      expect(api.requested('/api/limits')).toBe(1);
      expect(api.requested('/api/payout-addresses')).toBe(1);
    });
    expect(api.requested('/api/order/list')).toBe(1);
    expect(screen.queryByTestId('trade-widget')).toBeNull();

    api.release('/api/order/list');
    expect(await screen.findByTestId('remaining-limit', undefined, { timeout: 5_000 })).toBeInTheDocument();
    // The widget and its steps used those answers: nothing was read twice.
    expect(api.requested('/api/admin/settings')).toBe(1);
    expect(api.requested('/api/limits')).toBe(1);
    expect(api.requested('/api/payout-addresses')).toBe(1);
  });
});
