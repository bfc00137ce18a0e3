import { and, eq, gte, inArray, notInArray, sql } from 'drizzle-orm';
import { formatBtc } from '@offzero/shared/money/money';
import type { BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import type { Database } from '../../../db/database';
import { lightningPayouts, orders, payouts, type OrderRow, type PayoutRow } from '../../../db/schema';
import { AppError } from '../../../http/errors';
import { lockOrder } from '../../../orders/order.repository';
import { claimPayout } from '../../../payouts/payout-state';
import { checkPayoutDestination } from '../../../payout-addresses/payout-destination';
import { findGlobalSettings } from '../../../settings/global-settings.repository';
import {
  checkPayoutInvoice,
  invoiceForLightningAddress,
  paysOutByLightning,
  type LnurlOptions,
} from '../lightning-destination';
import { lightningDestinationKind } from '@offzero/shared/bitcoin/payout-destination';
import type { LightningNode } from '../lightning-node';
import { lightningPayoutSender } from '../lightning-payout-sender';
import { recordLightningOutcome } from './record-lightning-outcome';

export interface LightningPayoutDeps {
  db: Database;
  node: LightningNode;
  network: BitcoinNetwork;
  now: () => Date;
  lnurl?: LnurlOptions;
}

export const PAYOUT_MESSAGES = {
  inFlight: 'A Lightning payout of this order is already on its way.',
  notPayable: 'This order is not waiting for a Lightning payout.',
  off: 'Lightning payouts are not available right now. Choose a bitcoin address instead.',
  overOrderCap: (max: bigint) =>
    `Lightning payouts are limited to ${formatBtc(max)} BTC per order. Choose an on-chain address instead.`,
  held: 'This order is under review; its payout waits until the review ends.',
  coolingOff: 'This payout waits for the scam shield’s cooling-off period to end.',
  overDailyCap:
    'Lightning payouts have reached today’s limit. Try again tomorrow, or choose an on-chain address.',
} as const;

/** The most the node may spend routing one payout: 0.5 % of it, at least 10 sats. */
export function routingFeeBudgetSats(amountSats: bigint): bigint {
  const share = (amountSats * 5n + 999n) / 1000n;
  return share > 10n ? share : 10n;
}

/** The payouts that count against the daily cap: today's (UTC) Lightning payouts not failed. */
async function paidToday(db: Database, now: Date): Promise<bigint> {
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${payouts.amountSats}), 0)` })
    .from(payouts)
    .where(
      and(
        eq(payouts.rail, 'lightning'),
        notInArray(payouts.state, ['failed', 'cancelled']),
        gte(payouts.createdAt, dayStart),
      ),
    );
  return BigInt(row?.total ?? '0');
}

/**
 * A buy whose payment arrived: processing (the customer said they paid) is not enough, its payment must
 * be confirmed (an operator's "Mark payment received", a matched bank credit, a PayPal capture).
 */
const isPaid = (order: Pick<OrderRow, 'status' | 'paymentConfirmedAt'>) =>
  order.status === 'processing' && order.paymentConfirmedAt !== null;

/**
 * Pays a paid buy out by Lightning (docs/design.md, "Lightning", "Payouts"): the destination is turned
 * into one invoice and checked; then, under the order's lock and within `lightning.max_payout_sats`
 * and `lightning.daily_payout_sats`, the payout is claimed (`submitted`, with the invoice and its
 * payment hash) and committed before the node is asked to pay; the outcome is recorded afterwards. A
 * second call while one is in flight is refused; a crash after the claim leaves the payout
 * `submitted`, and the reconcile job asks the node by payment hash, never paying again.
 */
export async function payOutByLightning(
  deps: LightningPayoutDeps,
  orderId: string,
  actor: string,
): Promise<PayoutRow> {
  const now = deps.now();
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  if (!order || !paysOutByLightning(order) || !isPaid(order)) {
    throw new AppError('CONFLICT', PAYOUT_MESSAGES.notPayable);
  }
  // A Lightning address from the address book is paid once its entry is usable (confirmed, past the
  // cooldown), as an on-chain entry would be; a typed invoice is a one-time destination outside it.
  if (order.payoutAddressId) {
    const entry = await checkPayoutDestination(deps.db, order, now);
    if (!entry.due) throw new AppError('CONFLICT', entry.message);
  }
  const destination = order.walletAddress!.trim().replace(/^lightning:/i, '');
  const terms = { amountSats: order.amountSats, network: deps.network, now };
  const invoice =
    lightningDestinationKind(destination) === 'invoice'
      ? checkPayoutInvoice(destination, terms)
      : await invoiceForLightningAddress(destination.toLowerCase(), terms, deps.lnurl);

  const claimed = await deps.db.transaction(async (tx) => {
    const locked = await lockOrder(tx, orderId);
    if (!locked || !isPaid(locked)) throw new AppError('CONFLICT', PAYOUT_MESSAGES.notPayable);
    const live = await tx
      .select({ id: payouts.id })
      .from(payouts)
      .where(
        and(eq(payouts.orderId, orderId), inArray(payouts.state, ['requested', 'submitted', 'settled'])),
      );
    if (live.length > 0) throw new AppError('CONFLICT', PAYOUT_MESSAGES.inFlight);
    // A flagged order, or one in the scam shield's cooling-off, pays nothing yet.
    if (locked.flag) throw new AppError('CONFLICT', PAYOUT_MESSAGES.held);
    if (locked.coolingUntil && locked.coolingUntil > now)
      throw new AppError('CONFLICT', PAYOUT_MESSAGES.coolingOff);
    const settings = await findGlobalSettings(tx);
    if (locked.amountSats > settings.lightningMaxPayoutSats) {
      throw new AppError('BAD_REQUEST', PAYOUT_MESSAGES.overOrderCap(settings.lightningMaxPayoutSats));
    }
    if ((await paidToday(tx, now)) + locked.amountSats > settings.lightningDailyPayoutSats) {
      throw new AppError('BAD_REQUEST', PAYOUT_MESSAGES.overDailyCap);
    }
    const payout = await claimPayout(tx, {
      orderId,
      kind: 'btc',
      rail: 'lightning',
      sender: 'lightning',
      address: order.walletAddress,
      amountSats: locked.amountSats,
      createdBy: actor,
    });
    await tx.insert(lightningPayouts).values({
      payoutId: payout.id,
      paymentHash: invoice.paymentHash,
      invoice: invoice.invoice,
      feeBudgetSats: routingFeeBudgetSats(locked.amountSats),
    });
    return payout;
  });

  // The claim is committed: the money may leave now, once, through the rail's one sender.
  const outcome = await lightningPayoutSender.send({ db: deps.db, lightning: deps.node }, claimed, order);
  return recordLightningOutcome(deps, claimed.id, outcome);
}
