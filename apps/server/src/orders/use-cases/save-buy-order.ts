import type { SaveOrderRequest } from '@offzero/shared/api/orders';
import type { OrderRow, UserRow } from '../../db/schema';
import { insertOrderCreated } from '../order-save.repository';
import { findTwinAndWindowUse } from '../order-twins.repository';
import { assertUseWithinTradingLimits } from '../../limits/limits.service';
import { windowStarts } from '../../limits/trading-limits';
import { linkBuyPayoutAddress } from './link-payout-address';
import type { OrderDeps } from './order-deps';
import { claimOrderQuote, lockPricedOrder, priceOrder } from '../pricing/price-order';
import { keepTravelRuleRecord, travelRuleAnswer } from './travel-rule';

/**
 * A new pending buy at the server's figures (or its locked quote's), paid out later to the customer's
 * own address, an entry of their payout address book (a new address joins it unconfirmed, and the
 * payout waits). It is priced under the customer's lock (orders/pricing/price-order.ts). The same buy saved
 * again within 10 seconds (a double click) answers the first order (docs/design.md).
 */
export async function saveBuyOrder(
  deps: Pick<OrderDeps, 'db' | 'prices' | 'network' | 'now' | 'notify' | 'payoutAddresses' | 'bank'>,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<OrderRow> {
  const pricing = await priceOrder(deps, 'buy', user, body);
  const saved = await deps.db.transaction(async (tx) => {
    const { tier, priced } = await lockPricedOrder(deps, tx, user, body, pricing);
    const { twin, used, payoutEntryId } = await findTwinAndWindowUse(
      tx,
      {
        userId: user.id,
        type: 'buy',
        amountSats: priced.figures.amountSats,
        valueCents: priced.figures.valueCents,
        walletAddress: priced.walletAddress,
        paymentMethod: null,
      },
      windowStarts(deps.now()),
      priced.walletAddress,
    );
    if (twin) return twin;
    // Compliance, after every other check: counted under the customer's lock, so two saves at once
    // cannot both fit into what is left of a limit.
    assertUseWithinTradingLimits({
      settings: priced.settings,
      tier,
      used,
      valueCents: priced.figures.valueCents,
    });
    const walletOwnership = travelRuleAnswer(priced.figures.valueCents, body.walletOwnership);
    const payout = await linkBuyPayoutAddress(deps, tx, user.id, {
      payoutAddressId: body.payoutAddressId,
      walletAddress: priced.walletAddress,
      addressScreened: priced.addressScreened,
      knownEntryId: payoutEntryId,
    });
    const order = await insertOrderCreated(
      tx,
      {
        userId: user.id,
        type: 'buy',
        ...priced.figures,
        priceSnapshotId: priced.snapshot.id,
        quoteExpiresAt: priced.quoteExpiresAt,
        walletAddress: payout.walletAddress,
        payoutAddressId: payout.payoutAddressId,
        depositIndex: null,
        paymentMethod: null,
        receivingDetails: null,
      },
      `user:${user.id}`,
    );
    await claimOrderQuote(tx, priced, order.id, deps.now());
    if (walletOwnership) await keepTravelRuleRecord(tx, { order, user, answer: walletOwnership });
    return order;
  });
  // A new address's confirmation e-mail went into the outbox with the order: deliver it now.
  await deps.notify(saved);
  return saved;
}
