import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, saveCsrfToken, saveSessionToken } from '../../lib/session-storage';
import {
  fakeSessionToken,
  jsonResponse,
  newCustomerSettings,
  renderWithProviders,
} from '../../test/test-utils';
import { price, settings, verifiedUser } from '../../test/trade-fixtures';
import DashboardPage from './dashboard';

// The dashboard shows its tiles once the profile is in, and its trade widget once the order list is
// (to resume a pending order), but their reads go out with the profile's, not a round trip after it.

let releaseOrders: () => void = () => {};
let releaseProfile: () => void = () => {};
let fetchMock: ReturnType<typeof vi.fn<(input: string) => Promise<Response>>>;

const requested = (path: string) =>
  fetchMock.mock.calls.filter(([input]) => new URL(input, 'http://localhost').pathname === path).length;

beforeEach(() => {
  const ordersAnswered = new Promise<void>((resolve) => {
    releaseOrders = resolve;
  });
  const profileAnswered = new Promise<void>((resolve) => {
    releaseProfile = resolve;
  });
  fetchMock = vi.fn(async (input: string) => {
    const path = new URL(input, 'http://localhost').pathname;
    if (path === '/api/order/list') {
      await ordersAnswered;
      return jsonResponse({ result: { orders: [] } });
    }
    if (path === '/api/admin/settings') return jsonResponse({ settings });
    if (path === '/api/price') return jsonResponse(price);
    if (path === '/api/limits') {
      return jsonResponse({
        tier: 1,
        windows: [{ window: '24h', limitUsd: 10_000, usedUsd: 0, remainingUsd: 10_000 }],
      });
    }
    if (path === '/api/payout-addresses') return jsonResponse({ payoutAddresses: [] });
    if (path === '/api/user/settings') return jsonResponse({ settings: newCustomerSettings });
    if (path.startsWith('/api/kyc/')) {
      return jsonResponse({ kyc: { _id: 'k1', status: 'GREEN', reviewNote: null } });
    }
    if (path.startsWith('/api/user/')) {
      await profileAnswered;
      return jsonResponse({ user: verifiedUser });
    }
    return jsonResponse({ message: `unexpected ${path}`, code: 'NOT_FOUND' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  saveSessionToken(fakeSessionToken(verifiedUser._id));
  saveCsrfToken('csrf-1');
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
});

const ownKyc = `/api/kyc/${verifiedUser._id}`;

describe('the dashboard’s reads', () => {
  it('asks for the KYC record, the settings and the trade widget’s reads while the profile is on its way', async () => {
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });

    await vi.waitFor(() => {
      for (const path of [ownKyc, '/api/user/settings', '/api/admin/settings', '/api/limits']) {
        expect(requested(path), path).toBe(1);
      }
      expect(requested('/api/payout-addresses')).toBe(1);
    });
    expect(screen.queryByRole('heading', { name: 'Welcome, Ada' })).toBeNull();

    releaseProfile();
    releaseOrders();
    await screen.findByTestId('remaining-limit', undefined, { timeout: 5_000 });
    // The tiles and the widget used the answers already read.
    expect(requested(ownKyc)).toBe(1);
    expect(requested('/api/user/settings')).toBe(1);
    expect(requested('/api/admin/settings')).toBe(1);
  });

  it('asks for the trade widget’s terms, limits and address book while the order list is on its way', async () => {
    renderWithProviders(<DashboardPage />, { route: '/dashboard' });
    releaseProfile();
    await screen.findByRole('heading', { name: 'Welcome, Ada' });

    await vi.waitFor(() => {
      expect(requested('/api/admin/settings')).toBe(1);
      expect(requested('/api/limits')).toBe(1);
      expect(requested('/api/payout-addresses')).toBe(1);
    });
    expect(requested('/api/order/list')).toBe(1);
    expect(screen.queryByTestId('trade-widget')).toBeNull();

    releaseOrders();
    expect(await screen.findByTestId('remaining-limit', undefined, { timeout: 5_000 })).toBeInTheDocument();
    // The widget and its steps used those answers: nothing was read twice.
    expect(requested('/api/admin/settings')).toBe(1);
    expect(requested('/api/limits')).toBe(1);
    expect(requested('/api/payout-addresses')).toBe(1);
  });
});
