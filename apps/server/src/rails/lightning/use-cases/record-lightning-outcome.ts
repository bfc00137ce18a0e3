import { eq } from 'drizzle-orm';
import type { Database } from '../../../db/database';
import { lightningPayouts, payouts, type PayoutRow } from '../../../db/schema';
import { lockOrder } from '../../../orders/order.repository';
import { moveOrder } from '../../../orders/order-state';
import { movePayout } from '../../../payouts/payout-state';
import type { PayoutSendResult } from '../../rail-handler';

/**
 * Records what the node says of a `submitted` Lightning payout (docs/design.md, "Lightning"): settled
 * (the preimage kept as proof, the order completed with the payment hash as its transaction) or
 * failed (the order stays paid, for a retry or an on-chain payout). Pending records nothing. Under
 * the order's lock, and only while the payout is still `submitted`, so two recorders write once.
 */
export async function recordLightningOutcome(
  deps: { db: Database; now: () => Date },
  payoutId: string,
  outcome: PayoutSendResult,
): Promise<PayoutRow> {
  return deps.db.transaction(async (tx) => {
    const [payout] = await tx.select().from(payouts).where(eq(payouts.id, payoutId));
    if (!payout) throw new Error(`payout ${payoutId} vanished`);
    await lockOrder(tx, payout.orderId);
    const [current] = await tx.select().from(payouts).where(eq(payouts.id, payoutId));
    if (!current || current.state !== 'submitted' || outcome.outcome === 'submitted')
      return current ?? payout;
    // A Lightning payment is never taken and given back: a refusal of any kind is a failed attempt.
    if (outcome.outcome === 'failed' || outcome.outcome === 'returned') {
      await tx
        .update(lightningPayouts)
        .set({ failureReason: outcome.reason })
        .where(eq(lightningPayouts.payoutId, payoutId));
      return movePayout(tx, current, 'failed');
    }
    if (!outcome.proof) throw new Error(`lightning payout ${payoutId} settled without its preimage`);
    const { preimage, feeSats } = outcome.proof;
    await tx
      .update(lightningPayouts)
      .set({ preimage, feeSats })
      .where(eq(lightningPayouts.payoutId, payoutId));
    const paymentHash = outcome.reference;
    const settled = await movePayout(tx, current, 'settled', { reference: paymentHash });
    await moveOrder(tx, {
      orderId: current.orderId,
      from: ['processing'],
      to: 'completed',
      actor: 'system:lightning',
      reason: 'paid out by Lightning',
      patch: { txn: paymentHash, lightningPreimage: preimage },
      details: { paymentHash, preimage, feeSats: Number(feeSats) },
    });
    return settled;
  });
}
