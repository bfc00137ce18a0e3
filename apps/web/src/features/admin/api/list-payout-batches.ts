import { useQuery } from '@tanstack/react-query';
import { payoutBatchListSchema } from '@offzero/shared/api/payout-batches';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, QUEUE_POLL_MS } from './admin-query';

export function usePayoutBatches() {
  return useQuery({
    queryKey: [ADMIN_KEY, 'payouts', 'batches'],
    queryFn: ({ signal }) => apiGet('/admin/payouts/batches', { schema: payoutBatchListSchema, signal }),
    refetchInterval: QUEUE_POLL_MS,
  });
}
