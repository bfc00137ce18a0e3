import { and, asc, eq, gt, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/database';
import { orderEvents, orders, type OrderRow } from '../../db/schema';
import { recordFlagChange } from '../../orders/order-state';

/**
 * Links a pending order to the PayPal order created for it. The column is unique, so a PayPal order
 * already linked to another order makes this throw a unique violation.
 */
export async function linkPayPalOrder(
  db: Database,
  orderId: string,
  paypalOrderId: string,
  now: Date,
): Promise<void> {
  await db
    .update(orders)
    .set({ paypalOrderId, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')));
}

/**
 * Records on a pending order the capture PayPal holds (PENDING, e.g. an eCheck): the order waits for
 * PayPal's word that it completed, and does not expire meanwhile.
 */
export async function recordPendingCapture(
  db: Database | Transaction,
  orderId: string,
  captureId: string,
  now: Date,
): Promise<OrderRow | undefined> {
  const [updated] = await db
    .update(orders)
    .set({ paymentMethod: 'paypal', paypalCaptureId: captureId, paymentSubmittedAt: now, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending'), isNull(orders.paypalCaptureId)))
    .returning();
  return updated;
}

/** The order a PayPal capture paid, or the one a PayPal order was created for, locked. */
export async function lockOrderOfPayPalPayment(
  tx: Transaction,
  payment: { captureId: string; paypalOrderId?: string | null },
): Promise<OrderRow | undefined> {
  const byCapture = eq(orders.paypalCaptureId, payment.captureId);
  const [order] = await tx
    .select()
    .from(orders)
    .where(payment.paypalOrderId ? or(byCapture, eq(orders.paypalOrderId, payment.paypalOrderId)) : byCapture)
    .limit(1)
    .for('update');
  return order;
}

/**
 * Flags an order whose PayPal money was taken back and records it in the order's audit trail; its
 * status stays as it is (the bitcoin may already be sent). A flag it had before is kept in the note.
 */
export async function flagPaymentReversed(
  tx: Transaction,
  order: OrderRow,
  note: string,
  actor: string,
  now: Date,
): Promise<void> {
  const earlier =
    order.flag && order.flag !== 'payment_reversed'
      ? ` (earlier flag ${order.flag}${order.flagNote ? `: ${order.flagNote}` : ''})`
      : '';
  await tx
    .update(orders)
    .set({ flag: 'payment_reversed', flagNote: `${note}${earlier}`.slice(0, 2000), updatedAt: now })
    .where(eq(orders.id, order.id));
  await tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: order.status,
    actor,
    reason: 'PayPal payment reversed',
    details: {
      event: 'payment_reversed',
      note,
      ...(order.flag === 'payment_reversed' ? {} : { flag: { from: order.flag, to: 'payment_reversed' } }),
    },
  });
}

/** Flags an order (inside a transaction) and puts the change in its timeline. */
export async function flagOrderIn(
  tx: Transaction,
  orderId: string,
  flag: string,
  flagNote: string,
  now: Date,
): Promise<void> {
  const [before] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!before) return;
  await tx.update(orders).set({ flag, flagNote, updatedAt: now }).where(eq(orders.id, orderId));
  await recordFlagChange(tx, { before, after: { flag }, actor: 'system:paypal' });
}

/**
 * PayPal orders not settled (the order is still pending or expired) created before `createdBefore`:
 * those created since `recentSince`, and those holding a PENDING capture since `heldSince`.
 */
export async function findUnsettledPayPalOrders(
  db: Database,
  window: { createdBefore: Date; recentSince: Date; heldSince: Date },
  limit: number,
): Promise<Pick<OrderRow, 'id' | 'paypalOrderId'>[]> {
  return db
    .select({ id: orders.id, paypalOrderId: orders.paypalOrderId })
    .from(orders)
    .where(
      and(
        eq(orders.type, 'buy'),
        isNotNull(orders.paypalOrderId),
        inArray(orders.status, ['pending', 'expired']),
        lt(orders.createdAt, window.createdBefore),
        or(
          gt(orders.createdAt, window.recentSince),
          and(isNotNull(orders.paypalCaptureId), gt(orders.createdAt, window.heldSince)),
        ),
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(limit);
}
