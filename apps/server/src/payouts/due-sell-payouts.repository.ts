import { and, asc, eq, exists, gte, isNull, lte, not, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { orders, payouts, type OrderRow } from '../db/schema';

/**
 * The one rule of a sell whose dollars are due on a rail the server pays by itself (the day's ACH
 * file, instant payouts; docs/design.md, "Payouts"): processing, paid out on this rail, deposit
 * confirmed, unflagged, not cooling off, and no payout that paid, is paying or came back (a returned
 * payout is paid again by staff, with four eyes, never by the server).
 */
export interface DueSellPayoutRule {
  rail: 'ach' | 'instant';
  confirmationsRequired: number;
  now?: Date;
}

/** The payout states after which the server may still make an order's payout itself. */
const NO_PAYOUT_YET = ['failed', 'cancelled'] as const;

/** Due sells of that rail, oldest first; `where` narrows it (the ACH file's day). Read without locks. */
export async function findDueSellPayouts(
  db: Database | Transaction,
  rule: DueSellPayoutRule,
  options: { where?: SQL[]; limit?: number } = {},
): Promise<OrderRow[]> {
  const now = rule.now ?? new Date();
  const query = db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.status, 'processing'),
        eq(orders.type, 'sell'),
        eq(orders.paymentMethod, rule.rail),
        isNull(orders.flag),
        gte(orders.confirmations, rule.confirmationsRequired),
        or(isNull(orders.coolingUntil), lte(orders.coolingUntil, now)),
        not(
          exists(
            db
              .select({ one: sql`1` })
              .from(payouts)
              .where(
                and(
                  eq(payouts.orderId, orders.id),
                  eq(payouts.purpose, 'payout'),
                  notInArray(payouts.state, [...NO_PAYOUT_YET]),
                ),
              ),
          ),
        ),
        ...(options.where ?? []),
      ),
    )
    .orderBy(asc(orders.createdAt), asc(orders.id));
  return options.limit === undefined ? query : query.limit(options.limit);
}

/** The same rule on one order read under its lock (the payout check is the caller's). */
export function isDueSellPayout(order: OrderRow, rule: DueSellPayoutRule): boolean {
  const now = rule.now ?? new Date();
  return (
    order.type === 'sell' &&
    order.status === 'processing' &&
    order.paymentMethod === rule.rail &&
    order.flag === null &&
    order.confirmations >= rule.confirmationsRequired &&
    (order.coolingUntil === null || order.coolingUntil.getTime() <= now.getTime())
  );
}

/** Whether the order has a payout that paid, is paying or came back: the server makes no other. */
export async function hasBlockingPayout(tx: Database | Transaction, orderId: string): Promise<boolean> {
  const rows = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(
        eq(payouts.orderId, orderId),
        eq(payouts.purpose, 'payout'),
        notInArray(payouts.state, [...NO_PAYOUT_YET]),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
