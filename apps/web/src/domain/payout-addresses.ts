import { queryOptions, useQuery } from '@tanstack/react-query';
import { payoutAddressListSchema } from '@offzero/shared/api/payout-addresses';
import { apiGet } from '../lib/api-client';
import { useSession } from '../lib/session';
import { freshOnThisScreen } from '../lib/screen-freshness';

// The customer's payout address book (docs/design.md), read by Settings (which changes it) and by the
// buy flow (which chooses an entry): one query key, so a change in one is seen by the other. Read afresh
// when a screen opens, once for all its parts (screen-freshness.ts).

export const payoutAddressesQueryKey = (userId: string) => ['payout-addresses', userId] as const;

/** `GET /api/payout-addresses`: the customer's entries, removed ones left out. */
export function payoutAddressesQueryOptions(userId: string) {
  return queryOptions({
    queryKey: payoutAddressesQueryKey(userId),
    queryFn: async ({ signal }) =>
      (await apiGet('/payout-addresses', { schema: payoutAddressListSchema, signal })).payoutAddresses,
    staleTime: freshOnThisScreen,
  });
}

export function usePayoutAddresses() {
  const session = useSession();
  return useQuery({ ...payoutAddressesQueryOptions(session?.userId ?? ''), enabled: session !== null });
}
