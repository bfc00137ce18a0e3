import type { PayoutSender } from '../rail-handler';

/**
 * Buys paid in a payout batch (`payouts/batches/`): the operator signs the batch's PSBT outside the
 * server and uploads it, and the upload broadcasts one transaction for the whole batch and settles each
 * payout with its output. A payout handed to this sender waits in its batch.
 */
export const batchPayoutSender: PayoutSender = {
  mode: 'manual',
  send: async (_deps, payout) => ({
    outcome: 'submitted',
    reference: `batch:${payout.batchId ?? payout.id}`,
  }),
};
