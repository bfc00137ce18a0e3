import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  LIMIT_WINDOW_WORDS,
  limitsResponseSchema,
  type LimitsResponse,
  type LimitWindow,
} from '@offzero/shared/api/limits';
import { apiGet } from '../lib/api-client';
import { ordersQueryKey } from './orders';
import { useSession } from '../lib/session';
import { freshOnThisScreen } from '../lib/screen-freshness';
import { centsOf } from '../lib/format';
import type { Cents } from '@offzero/shared/money/money';

// The customer's trading limits (docs/design.md): GET /api/limits. They are a sum over the customer's
// orders, so the key sits under the orders' key: whatever marks the orders stale (a save, a cancel,
// a realtime order update) reads the limits again too.
// Read afresh when a screen opens, once for all its parts (screen-freshness.ts).

export const limitsQueryKey = (userId: string) => [...ordersQueryKey, 'limits', userId] as const;

export function limitsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: limitsQueryKey(userId),
    queryFn: ({ signal }) => apiGet('/limits', { schema: limitsResponseSchema, signal }),
    staleTime: freshOnThisScreen,
  });
}

/** The signed-in customer's limits; idle for a visitor. */
export function useLimits() {
  const session = useSession();
  return useQuery({ ...limitsQueryOptions(session?.userId ?? ''), enabled: session !== null });
}

/** The window with the least left, which is what the customer can trade now, in cents. */
export function tightestWindow(
  limits: LimitsResponse,
): { window: LimitWindow; remainingCents: Cents; label: string; rest: string } | null {
  let tightest: { window: LimitWindow; remainingCents: Cents } | null = null;
  for (const { window, remainingUsd } of limits.windows) {
    const remainingCents = centsOf(remainingUsd);
    if (remainingCents === null) continue;
    if (!tightest || remainingCents < tightest.remainingCents) tightest = { window, remainingCents };
  }
  return tightest ? { ...tightest, ...LIMIT_WINDOW_WORDS[tightest.window] } : null;
}
