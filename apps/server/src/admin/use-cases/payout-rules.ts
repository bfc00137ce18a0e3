import type { OrderRow, PayoutRow } from '../../db/schema';
import { AppError } from '../../http/errors';

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
