import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { kycResponseSchema, type kycRecordSchema } from '@offzero/shared/api/kyc';
import { apiGet } from '../lib/api-client';
import { useAppConfig } from '../lib/app-config';
import { fallbackPollingDisabled, useRealtimeConnectedEffect, useRealtimeEvent } from '../lib/realtime';
import { freshOnThisScreen } from '../lib/screen-freshness';
import { useSession } from '../lib/session';

// The signed-in customer's identity verification record, read by the KYC
// screens, the dashboard tile and the trade checks alike. The server decides every status; the
// browser only reads GET /api/kyc again.

export type KycRecord = z.infer<typeof kycRecordSchema>;

/** While a case is under review, how often the status is read again so an approval shows by itself. */
export const KYC_REVIEW_POLL_MS = 10_000;

export const kycQueryKey = (userId: string) => ['kyc', userId] as const;

export function kycQueryOptions(userId: string) {
  return queryOptions({
    queryKey: kycQueryKey(userId),
    queryFn: async ({ signal }) =>
      (await apiGet(`/kyc/${encodeURIComponent(userId)}`, { schema: kycResponseSchema, signal })).kyc,
    // Read afresh whenever a screen opens, once for all its parts (the tile and the trade widget).
    staleTime: freshOnThisScreen,
  });
}

/** The signed-in customer's KYC record (null: none yet), polled every 10 s while it is YELLOW. */
export function useKyc() {
  const session = useSession();
  const queryClient = useQueryClient();
  const poll = !fallbackPollingDisabled(useAppConfig().mode);
  // A decision in the back office shows at once; the poll covers a lost connection. Every screen part
  // that reads the record hears the event: the first starts the read, the others join it
  // (cancelRefetch: false), so one event makes one request.
  const refresh = () =>
    void queryClient.invalidateQueries(
      { queryKey: kycQueryKey(session?.userId ?? '') },
      { cancelRefetch: false },
    );
  useRealtimeEvent('kyc-updated', refresh);
  // A decision announced while the socket was down is read on reconnect.
  useRealtimeConnectedEffect(refresh);
  return useQuery({
    ...kycQueryOptions(session?.userId ?? ''),
    enabled: session !== null,
    refetchInterval: (query) => (poll && query.state.data?.status === 'YELLOW' ? KYC_REVIEW_POLL_MS : false),
  });
}
