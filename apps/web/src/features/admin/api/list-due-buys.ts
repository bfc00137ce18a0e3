import { useQuery } from '@tanstack/react-query';
import { dueBuyListSchema } from '@offzero/shared/api/payout-batches';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, QUEUE_POLL_MS } from './admin-query';

/** Buys whose bitcoin is due in a payout batch (docs/design.md). */
export function useDueBuys() {
  return useQuery({
    queryKey: [ADMIN_KEY, 'payouts', 'due'],
    queryFn: ({ signal }) => apiGet('/admin/payouts/due', { schema: dueBuyListSchema, signal }),
    refetchInterval: QUEUE_POLL_MS,
  });
}
