import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../../../db/database';
import { lightningPayouts, payouts } from '../../../db/schema';
import type { LightningNode } from '../lightning-node';
import { lightningOutcome } from '../lightning-payout-sender';
import { recordLightningOutcome } from './record-lightning-outcome';

/** A payout the node does not know this long after its claim never reached it: it failed. */
const UNKNOWN_PAYOUT_FAILS_AFTER_MS = 5 * 60_000;

/** Payouts claimed whose outcome is not recorded (a crash, a node that did not answer): asked by hash. */
export async function resolveSubmittedPayouts(deps: {
  db: Database;
  node: LightningNode;
  now: () => Date;
}): Promise<number> {
  const { now } = deps;
  const open = await deps.db
    .select({
      payoutId: payouts.id,
      createdAt: payouts.createdAt,
      paymentHash: lightningPayouts.paymentHash,
    })
    .from(payouts)
    .innerJoin(lightningPayouts, eq(lightningPayouts.payoutId, payouts.id))
    .where(and(eq(payouts.rail, 'lightning'), eq(payouts.state, 'submitted'), lt(payouts.createdAt, now())));
  let resolved = 0;
  for (const payout of open) {
    const known = await deps.node.outgoingPaymentByHash(payout.paymentHash);
    const stale = now().getTime() - payout.createdAt.getTime() > UNKNOWN_PAYOUT_FAILS_AFTER_MS;
    const outcome = known
      ? lightningOutcome(known, payout.paymentHash)
      : stale
        ? { outcome: 'failed' as const, reason: 'The node never sent it.' }
        : null;
    if (!outcome) continue;
    await recordLightningOutcome({ db: deps.db, now }, payout.payoutId, outcome);
    resolved++;
  }
  return resolved;
}
