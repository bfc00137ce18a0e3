import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { isUniqueViolation } from '../db/postgres-errors';
import { orderEvents, payouts, type OrderRow, type PayoutRow } from '../db/schema';
import { AppError } from '../http/errors';

/**
 * The SQL of `payouts` (docs/design.md): one row per order, the intent first (`sending`), the
 * result (txid and vout, or a bank reference) once the money has moved.
 */

export type NewPayout = Pick<
  typeof payouts.$inferInsert,
  'orderId' | 'kind' | 'address' | 'amountSats' | 'createdBy' | 'batchId'
> & { txid?: string; vout?: number; reference?: string };

const OUTPUT_ALREADY_USED = 'This transaction output already pays another order. Check the txid and vout.';

export async function findPayoutOfOrder(
  tx: Database | Transaction,
  orderId: string,
): Promise<PayoutRow | undefined> {
  const [payout] = await tx.select().from(payouts).where(eq(payouts.orderId, orderId));
  return payout;
}

/**
 * Records a payout of the order: `sending` (an intent, before the money moves) without a result,
 * `sent` with one. 409 when the output (txid, vout) already pays another order.
 */
export async function insertPayout(
  tx: Transaction,
  values: NewPayout,
  state: PayoutRow['state'],
): Promise<PayoutRow> {
  try {
    const [payout] = await tx
      .insert(payouts)
      .values({ ...values, state, ...(state === 'sent' ? { sentAt: new Date() } : {}) })
      .returning();
    if (!payout) throw new Error('payout insert returned nothing');
    return payout;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', OUTPUT_ALREADY_USED);
    throw error;
  }
}

/** The result of a payout in flight: the transaction output that paid the order. */
export async function recordPayoutSent(
  tx: Transaction,
  payoutId: string,
  output: { txid: string; vout: number },
): Promise<PayoutRow> {
  try {
    const [payout] = await tx
      .update(payouts)
      .set({ state: 'sent', txid: output.txid, vout: output.vout, sentAt: new Date() })
      .where(eq(payouts.id, payoutId))
      .returning();
    if (!payout) throw new Error('payout update returned nothing');
    return payout;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', OUTPUT_ALREADY_USED);
    throw error;
  }
}

/** Puts a payout that started (and has no result yet) in the order's timeline, for the back office. */
export async function recordPayoutStarted(
  tx: Transaction,
  order: OrderRow,
  payout: PayoutRow,
  actor: string,
): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: order.status,
    actor,
    reason: `bitcoin payout in flight: sending to ${payout.address ?? 'the customer'}`,
    details: { event: 'payout_started', payoutId: payout.id, address: payout.address },
  });
}
