import { formatBtc, formatUsd } from '@offzero/shared/money/money';
import type { Transaction } from '../../../db/database';
import type { OrderRow } from '../../../db/schema';
import { crossedTradingLimit } from '../../../limits/limits.service';
import { recordOrderNotices } from '../../../orders/order-notifications';
import { moveOrder, recordOrderRequoted } from '../../../orders/order-state';
import { flagOrder } from '../../../orders/order.repository';
import { findGlobalSettings } from '../../../settings/global-settings.repository';
import { priceDeposits } from '../../../orders/pricing/price-order';
import { findOrCreateDepositTerms, findSeenDepositsIn, repriceOrder } from '../deposit.repository';
import { nextFlag } from './deposit-flags';
import type { WatcherDeps } from './watcher-deps';

/** What changed about an order's deposits, as its audit trail and notices tell it. */
export interface DepositChange {
  eventKey: string;
  reason: string;
  details: Record<string, unknown>;
  /** The txid that left the chain, when a deposit vanished. */
  vanished?: string;
}

/**
 * Prices every deposit of an open sell on their sum (docs/design.md) inside the caller's transaction:
 * a pending or expired order moves to processing, a processing one is re-priced where it is. `latest`
 * is the deposit the order now waits on for confirmations (the newest). A sum too small to pay
 * anything out after fees only flags the order: moving it on would leave its full value due for a
 * few satoshis. Returns the order as it now is, its notices written.
 */
export async function priceOnSum(
  deps: WatcherDeps,
  tx: Transaction,
  current: OrderRow,
  latest: { txid: string; confirmations: number },
  change: DepositChange,
): Promise<OrderRow | null> {
  const assessed = await assessDeposits(deps, tx, current, change);
  if (!assessed) return null;
  const { quote, flag, raised, reprice, receivedSats, late } = assessed;
  const figures = reprice
    ? {
        amountSats: quote!.amountSats,
        valueCents: quote!.valueCents,
        priceCents: quote!.priceCents,
        platformFeeCents: quote!.platformFeeCents,
      }
    : {};
  const notices = async (row: OrderRow | undefined): Promise<OrderRow | null> => {
    if (!row) return null;
    await recordOrderNotices(tx, row, { eventKey: change.eventKey, messages: true });
    return row;
  };
  if (!quote) return notices(await flagOrder(tx, current.id, flag, deps.now(), 'system:deposit-watcher'));
  const patch = {
    ...figures,
    ...flag,
    txn: latest.txid,
    confirmations: latest.confirmations,
    receivedSats,
  };
  if (current.status === 'pending' || current.status === 'expired') {
    return moveOrder(tx, {
      orderId: current.id,
      from: ['pending', 'expired'],
      to: 'processing',
      actor: 'system:deposit-watcher',
      reason: late ? 'deposit arrived after the window closed' : change.reason,
      patch,
      details: {
        ...change.details,
        receivedSats: receivedSats.toString(),
        ...(reprice && raised ? { why: raised } : {}),
      },
    });
  }
  const after = await repriceOrder(tx, current.id, patch, deps.now());
  if (!after) return null;
  await recordOrderRequoted(tx, {
    before: current,
    after,
    actor: 'system:deposit-watcher',
    reason: change.reason,
    why: raised,
  });
  return notices(after);
}

/**
 * The sum of an order's seen deposits priced (docs/design.md 7.7): split deposits on their sum, an
 * over-payment beyond the quoted amount at the lower of the locked and current price, an order pushed
 * over `max_order_size` or the customer's rolling limits flagged `over_limit`. Null when nothing is seen.
 */
async function assessDeposits(deps: WatcherDeps, tx: Transaction, current: OrderRow, change: DepositChange) {
  const late = current.status === 'expired';
  const settings = await findGlobalSettings(tx);
  const currentPrice = deps.prices.current()?.buyPriceCents ?? null;
  const terms = await findOrCreateDepositTerms(tx, {
    orderId: current.id,
    quotedSats: current.amountSats,
    lockedPriceCents: current.priceCents,
    // A late deposit is priced now; an on-time one at the price locked with the order.
    basePriceCents: late && currentPrice ? currentPrice : current.priceCents,
  });
  const seen = await findSeenDepositsIn(tx, current.id);
  const receivedSats = seen.reduce((sum, deposit) => sum + deposit.valueSats, 0n);
  if (receivedSats === 0n) return null;
  const quote = priceDeposits({
    receivedSats,
    quotedSats: terms.quotedSats,
    basePriceCents: terms.basePriceCents,
    lockedPriceCents: terms.lockedPriceCents,
    currentPriceCents: currentPrice,
    feeBps: settings.platformFeeBps,
    bankChargesCents: current.bankFeeCents,
  });
  const overMaximum = quote !== null && quote.valueCents > settings.maxOrderCents;
  // An over-payment may also take the customer past their own rolling limits (docs/design.md):
  // what is left of each window without this order, counted now.
  const crossedWindow =
    quote !== null && !overMaximum && receivedSats > terms.quotedSats
      ? await crossedTradingLimit(tx, {
          userId: current.userId,
          valueCents: quote.valueCents,
          now: deps.now(),
          exceptOrderId: current.id,
        })
      : null;
  const overLimit = overMaximum || crossedWindow !== null;
  const raised = overLimit
    ? 'over_limit'
    : change.vanished
      ? 'vanished_tx'
      : late
        ? 'late_deposit'
        : receivedSats < terms.quotedSats
          ? 'underpaid'
          : receivedSats > terms.quotedSats
            ? 'overpaid'
            : null;
  const what = `received ${formatBtc(receivedSats)} BTC${seen.length > 1 ? ` in ${seen.length} deposits` : ''}, order was for ${formatBtc(terms.quotedSats)} BTC`;
  const outcome = !quote
    ? 'too small to pay out after fees'
    : overLimit
      ? crossedWindow
        ? `worth $${formatUsd(quote.valueCents)}, over the customer's ${crossedWindow}: held`
        : `worth $${formatUsd(quote.valueCents)}, over the $${formatUsd(settings.maxOrderCents)} order limit: held`
      : 're-priced';
  const flag = nextFlag(
    current,
    raised
      ? {
          flag: raised,
          note: `${raised.replace('_', ' ')}: ${change.vanished ? `${change.vanished} is no longer on the chain; ` : ''}${what}; ${outcome}`,
        }
      : null,
  );
  // The locked figures stand for an on-time deposit of exactly the quoted amount.
  const reprice = Boolean(
    quote && (late || receivedSats !== terms.quotedSats || current.amountSats !== terms.quotedSats),
  );
  return { quote, flag, raised, reprice, receivedSats, late };
}
