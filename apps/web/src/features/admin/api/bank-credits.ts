import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { bankCreditsResponseSchema } from '@offzero/shared/api/bank';
import { messageAnswerSchema } from '@offzero/shared/api/admin';
import { orderResponseSchema } from '@offzero/shared/api/orders';
import { apiGet, apiPost } from '../../../lib/api-client';
import { ADMIN_KEY, enc, QUEUE_POLL_MS } from './admin-query';

/** Money at the bank that paid no order by itself (docs/design.md, "Bank provider"). */
export function useUnmatchedBankCredits() {
  return useQuery({
    queryKey: [ADMIN_KEY, 'bank-credits', 'unmatched'],
    queryFn: ({ signal }) =>
      apiGet('/admin/bank-credits?status=unmatched', { schema: bankCreditsResponseSchema, signal }),
    refetchInterval: QUEUE_POLL_MS,
  });
}

export function useMatchBankCredit(creditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (orderId: string) =>
      apiPost(`/admin/bank-credits/${enc(creditId)}/match`, { orderId }, { schema: orderResponseSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}

export function useReturnBankCredit(creditId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) =>
      apiPost(`/admin/bank-credits/${enc(creditId)}/return`, { reason }, { schema: messageAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}
