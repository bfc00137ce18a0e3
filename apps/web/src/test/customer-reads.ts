import { vi } from 'vitest';
import type { LimitsResponse } from '@offzero/shared/api/limits';
import { jsonResponse, newCustomerSettings } from './test-utils';
import { price, settings, verifiedUser } from './trade-fixtures';

/** Nothing traded yet: every window's limit is left. */
export const unusedLimits: LimitsResponse = {
  tier: 1,
  windows: [
    { window: '24h', limitUsd: 10_000, usedUsd: 0, remainingUsd: 10_000 },
    { window: '7d', limitUsd: 20_000, usedUsd: 0, remainingUsd: 20_000 },
    { window: '30d', limitUsd: 50_000, usedUsd: 0, remainingUsd: 50_000 },
  ],
};

/**
 * A `fetch` stand-in answering the reads the dashboard and the trade widget make for a verified
 * customer with no orders, payout addresses or bank account. The paths in `held` are answered only once
 * `release(path)` is called; `requested(path)` counts the reads of a path.
 */
export function stubCustomerReads({
  limits = unusedLimits,
  held = [],
}: { limits?: LimitsResponse; held?: string[] } = {}) {
  const releases = new Map<string, () => void>();
  const answered = new Map(
    held.map((path) => [path, new Promise<void>((resolve) => releases.set(path, resolve))] as const),
  );
  const fetchMock = vi.fn(async (input: string) => {
    const path = new URL(input, 'http://localhost').pathname;
    await answered.get(path);
    if (path === '/api/order/list') return jsonResponse({ result: { orders: [] } });
    if (path === '/api/admin/settings') return jsonResponse({ settings });
    if (path === '/api/price') return jsonResponse(price);
    if (path === '/api/limits') return jsonResponse(limits);
    if (path === '/api/payout-addresses') return jsonResponse({ payoutAddresses: [] });
    if (path === '/api/user/settings') return jsonResponse({ settings: newCustomerSettings });
    if (path.startsWith('/api/kyc/')) {
      return jsonResponse({ kyc: { _id: 'k1', status: 'GREEN', reviewNote: null } });
    }
    if (path.startsWith('/api/user/')) return jsonResponse({ user: verifiedUser });
    return jsonResponse({ message: `unexpected ${path}`, code: 'NOT_FOUND' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    requested: (path: string) =>
      fetchMock.mock.calls.filter(([input]) => new URL(input, 'http://localhost').pathname === path).length,
    release: (path: string) => releases.get(path)?.(),
  };
}
