import { useMutation, useQueryClient } from '@tanstack/react-query';
import { payoutBatchAnswerSchema, type FeeTier } from '@offzero/shared/api/payout-batches';
import { apiPost } from '../../../lib/api-client';
import { ADMIN_KEY, enc } from './admin-query';

export type PayoutBatchAction =
  | { kind: 'build'; feeTier: FeeTier }
  | { kind: 'signed'; batchId: string; psbt: string }
  | { kind: 'bump-fee'; batchId: string; feeTier: FeeTier }
  | { kind: 'abandon'; batchId: string };

/** Every change of a batch; each answers the batch (and its unsigned PSBT) as it now is. */
export function usePayoutBatchAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, idempotencyKey }: { action: PayoutBatchAction; idempotencyKey: string }) => {
      const options = { schema: payoutBatchAnswerSchema, idempotencyKey };
      switch (action.kind) {
        case 'build':
          return apiPost('/admin/payouts/batches', { feeTier: action.feeTier }, options);
        case 'signed':
          return apiPost(
            `/admin/payouts/batches/${enc(action.batchId)}/signed`,
            { psbt: action.psbt },
            options,
          );
        case 'bump-fee':
          return apiPost(
            `/admin/payouts/batches/${enc(action.batchId)}/bump-fee`,
            { feeTier: action.feeTier },
            options,
          );
        case 'abandon':
          return apiPost(`/admin/payouts/batches/${enc(action.batchId)}/abandon`, {}, options);
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}
