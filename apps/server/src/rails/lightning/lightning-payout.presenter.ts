import { and, desc, eq, inArray } from 'drizzle-orm';
import type { OrderLightningPayout } from '@offzero/shared/api/order-lightning';
import type { Database, Transaction } from '../../db/database';
import { lightningPayouts, payouts, type OrderRow } from '../../db/schema';
import { lightningDestinationKind } from '@offzero/shared/bitcoin/payout-destination';
import { paysOutByLightning } from './lightning-destination';

const SHOWN_STATES = ['requested', 'submitted', 'settled', 'failed'] as const;

/**
 * A buy's Lightning payout as the order API shows it (docs/design.md, "Lightning"): its newest attempt,
 * with the payment hash, and once settled the preimage, the proof of payment. A Lightning buy not paid
 * out yet shows `requested` with nothing to prove; a buy without a Lightning destination or attempt has
 * none.
 */
export async function lightningPayoutsOfOrders(
  db: Database | Transaction,
  orderList: readonly OrderRow[],
): Promise<Map<string, OrderLightningPayout>> {
  const buys = orderList.filter((order) => order.type === 'buy');
  const shown = new Map<string, OrderLightningPayout>();
  if (buys.length === 0) return shown;
  const attempts = await db
    .select({ payout: payouts, details: lightningPayouts })
    .from(payouts)
    .innerJoin(lightningPayouts, eq(lightningPayouts.payoutId, payouts.id))
    .where(
      and(
        inArray(
          payouts.orderId,
          buys.map((order) => order.id),
        ),
        eq(payouts.rail, 'lightning'),
        eq(payouts.purpose, 'payout'),
      ),
    )
    .orderBy(desc(payouts.createdAt));
  const newest = new Map<string, (typeof attempts)[number]>();
  for (const attempt of attempts) {
    if (!newest.has(attempt.payout.orderId)) newest.set(attempt.payout.orderId, attempt);
  }
  for (const order of buys) {
    const attempt = newest.get(order.id);
    const destination = attempt?.payout.address ?? order.walletAddress ?? '';
    const destinationKind = lightningDestinationKind(destination);
    if (!destinationKind) continue;
    if (!attempt) {
      if (!paysOutByLightning(order)) continue;
      shown.set(order.id, {
        status: 'requested',
        destinationKind,
        paymentHash: null,
        preimage: null,
        feeSats: null,
        failureReason: null,
        canRetry: false,
      });
      continue;
    }
    const { payout, details } = attempt;
    const status = SHOWN_STATES.find((state) => state === payout.state) ?? 'requested';
    shown.set(order.id, {
      status,
      destinationKind,
      paymentHash: details.paymentHash,
      preimage: status === 'settled' ? details.preimage : null,
      feeSats: status === 'settled' && details.feeSats !== null ? Number(details.feeSats) : null,
      failureReason:
        status === 'failed' ? (details.failureReason ?? 'The payment did not go through.') : null,
      // Still a Lightning buy waiting for its bitcoin (not sent on chain instead).
      canRetry: status === 'failed' && order.status === 'processing' && paysOutByLightning(order),
    });
  }
  return shown;
}

/** One order's Lightning payout, if it has one. */
export async function lightningPayoutOfOrder(
  db: Database | Transaction,
  order: OrderRow,
): Promise<OrderLightningPayout | undefined> {
  return (await lightningPayoutsOfOrders(db, [order])).get(order.id);
}
