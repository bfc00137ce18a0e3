import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { btcRefunds, orderEvents, type BtcRefundRow, type OrderRow } from '../db/schema';

/** The return of this order's coins, if one was recorded. */
export async function findBtcRefund(
  tx: Database | Transaction,
  orderId: string,
): Promise<BtcRefundRow | undefined> {
  const [refund] = await tx.select().from(btcRefunds).where(eq(btcRefunds.orderId, orderId));
  return refund;
}

/** Records the return; the unique order id makes a second one fail rather than count twice. */
export async function insertBtcRefund(
  tx: Transaction,
  refund: { orderId: string; address: string; txid: string; refundedBy: string },
): Promise<BtcRefundRow> {
  const [inserted] = await tx.insert(btcRefunds).values(refund).returning();
  if (!inserted) throw new Error('btc refund insert returned nothing');
  return inserted;
}

/** Puts an event that changes no status into the order's timeline (from and to its current status). */
export async function recordOrderEvent(
  tx: Transaction,
  order: Pick<OrderRow, 'id' | 'status'>,
  event: { actor: string; reason: string; details: Record<string, unknown> },
): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: order.status,
    actor: event.actor,
    reason: event.reason,
    details: event.details,
  });
}
