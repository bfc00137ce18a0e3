import { and, eq, inArray, notInArray } from 'drizzle-orm';
import type { PayoutState } from '@offzero/shared/api/payouts';
import type { Database, Transaction } from '../db/database';
import { orderEvents, payouts, type OrderRow, type PayoutPurpose, type PayoutRow } from '../db/schema';

/**
 * The reads of `payouts` (docs/design.md, "Payouts claim the order first"). Every write of a payout
 * goes through `payout-state.ts`.
 */

/**
 * The states a payout leaves behind when it did not pay (or the money came back): another payout may
 * follow it. Matches the partial unique index `payouts_order_purpose_unique`.
 */
export const ENDED_WITHOUT_PAYING = ['failed', 'cancelled', 'returned'] as const;

/** The order's live payout of that purpose (claimed, in flight or settled), if any. */
export async function findPayoutOfOrder(
  tx: Database | Transaction,
  orderId: string,
  purpose: PayoutPurpose = 'payout',
): Promise<PayoutRow | undefined> {
  const [payout] = await tx
    .select()
    .from(payouts)
    .where(
      and(
        eq(payouts.orderId, orderId),
        eq(payouts.purpose, purpose),
        notInArray(payouts.state, [...ENDED_WITHOUT_PAYING]),
      ),
    );
  return payout;
}

/**
 * Whether an earlier payout of the order came back or was refused: paying it again is a second
 * movement of money, which staff approve with four eyes whatever the amount (docs/design.md, "Instant payouts").
 */
export async function hasPayoutThatCameBack(tx: Database | Transaction, orderId: string): Promise<boolean> {
  return hasOrderPayoutIn(tx, orderId, ['returned', 'failed']);
}

/** Whether the order has a payout (not a refund) in one of `states`. */
export async function hasOrderPayoutIn(
  tx: Database | Transaction,
  orderId: string,
  states: readonly PayoutState[],
): Promise<boolean> {
  const rows = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(eq(payouts.orderId, orderId), eq(payouts.purpose, 'payout'), inArray(payouts.state, [...states])),
    )
    .limit(1);
  return rows.length > 0;
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
