import type { Transaction } from '../../db/database';
import type { OrderRow, PayoutRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { findBatchClaim } from '../../payout-batches/payout-batch.repository';

/**
 * An order held by a payout batch is paid by that batch's transaction only (DESIGN.md 7.11): a manual
 * payout of it could pay the customer twice. Abandon the unsigned batch first to pay it by hand.
 */
export async function assertNotInBatch(tx: Transaction, order: OrderRow): Promise<void> {
  const claim = await findBatchClaim(tx, order.id);
  if (claim) {
    throw new AppError(
      'CONFLICT',
      `This order is in payout batch ${claim.batchId.slice(0, 8)}. Pay it through the batch, or abandon that batch first.`,
    );
  }
}

/**
 * What every payout path checks, inside the transaction that holds the order's lock (DESIGN.md 7.7):
 * no payout of a flagged order, and never a second payout of the same order. A payout that started
 * and has no result may have sent money already, so nothing sends again; staff check the chain.
 */
export function assertMayPayOut(order: OrderRow, existing: PayoutRow | undefined): void {
  if (order.flag) throw new AppError('CONFLICT', 'Resolve the flag first.');
  if (existing) assertNoPayout(order, existing);
}

export function assertNoPayout(order: OrderRow, existing: PayoutRow): void {
  if (existing.state === 'sending') {
    throw new AppError(
      'CONFLICT',
      `A payout of this order is already in flight (started ${existing.createdAt.toISOString()}). ` +
        `Do not send again: check the chain for a transaction to ${existing.address ?? order.walletAddress ?? 'the customer'}, ` +
        'then record its txid with "Record bitcoin payout".',
    );
  }
  throw new AppError('CONFLICT', 'This order was already paid out.');
}
