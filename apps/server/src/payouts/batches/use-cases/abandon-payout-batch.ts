import type { SignedInUser } from '../../../auth/sessions';
import { recordAdminAction } from '../../../admin/admin-audit.repository';
import { AppError } from '../../../http/errors';
import { lockBatch, releaseClaims, updateBatch, type BatchWithOrders } from '../payout-batch.repository';
import type { PayoutBatchDeps } from '../payout-batch-deps';

/**
 * Drops a batch that was never signed (a wrong fee, an order to hold back): its orders are free for the
 * next batch. Once a signed transaction is recorded the batch can no longer be dropped: money may move.
 */
export async function abandonPayoutBatch(
  deps: PayoutBatchDeps,
  request: { staff: SignedInUser; batchId: string },
): Promise<BatchWithOrders> {
  return deps.db.transaction(async (tx) => {
    const current = await lockBatch(tx, request.batchId);
    if (!current) throw new AppError('NOT_FOUND', 'Payout batch not found.');
    if (current.batch.status !== 'awaiting_signature') {
      throw new AppError(
        'CONFLICT',
        `Only a batch waiting for its signature can be abandoned; this one is ${current.batch.status.replace('_', ' ')}.`,
      );
    }
    await releaseClaims(tx, current.batch.id);
    const batch = await updateBatch(tx, current.batch.id, { status: 'abandoned' });
    await recordAdminAction(tx, request.staff, {
      action: 'payout_batch.abandon',
      targetType: 'payout_batch',
      targetId: batch.id,
      before: { status: current.batch.status },
      after: { status: 'abandoned' },
    });
    return { batch, orders: current.orders };
  });
}
