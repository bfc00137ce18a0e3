import { and, eq, notInArray } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { orderEvents, payouts, type OrderRow, type PayoutPurpose, type PayoutRow } from '../db/schema';

/**
 * The reads of `payouts` (docs/design.md, "Payouts claim the order first"). Every write of a payout
 * goes through `payout-state.ts`.
 */

/** The states a payout leaves behind when it did not pay: another payout may follow it. */
const ENDED_WITHOUT_PAYING = ['failed', 'cancelled'] as const;

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
