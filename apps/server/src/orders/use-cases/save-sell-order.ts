import type { SaveOrderRequest } from '@offzero/shared/api/orders';
import type { OrderRow, UserRow } from '../../db/schema';
import { allocateDepositAddress } from '../../rails/onchain/allocate-deposit-address';
import { insertOrderCreated } from '../order-save.repository';
import { findTwinAndWindowUse } from '../order-twins.repository';
import { assertUseWithinTradingLimits } from '../../limits/limits.service';
import { windowStarts } from '../../limits/trading-limits';
import type { OrderDeps } from './order-deps';
import { claimOrderQuote, lockPricedOrder, priceOrder } from '../pricing/price-order';
import { keepTravelRuleRecord, travelRuleAnswer } from './travel-rule';
import { checkPlaceForMoneyRoute, recordingShieldRefusals } from '../../places/place-check';
import { assertLightningSell, createSellInvoice } from '../../rails/lightning/use-cases/sell-invoice';

/**
 * A new pending sell at the server's figures (or its locked quote's), with a deposit address of its own that was never used
 * before (the next index of the sequence; an index a failed save took is skipped, never handed out again).
 * The same sell saved again within 10 seconds (a double click) answers the first order and takes no
 * second address (docs/design.md). A customer of a place closed for selling saves nothing, and the order
 * keeps the places rules version it was checked against (docs/design.md, "Places and the scam shield").
 */
export async function saveSellOrder(
  deps: Pick<OrderDeps, 'db' | 'prices' | 'network' | 'depositXpub' | 'now' | 'lightning' | 'bank'>,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<OrderRow> {
  return recordingShieldRefusals(deps.db, user.id, 'order-save', () => saveCheckedSell(deps, user, body));
}

async function saveCheckedSell(
  deps: Pick<OrderDeps, 'db' | 'prices' | 'network' | 'depositXpub' | 'now' | 'lightning' | 'bank'>,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<OrderRow> {
  // A closed place is told so before anything about amounts; checked again under the lock.
  await checkPlaceForMoneyRoute(deps.db, { userId: user.id, side: 'sell', route: 'order-save' });
  // Priced in full before the customer's lock, against its locked quote or from a price served.
  const pricing = await priceOrder(deps, 'sell', user, body);
  // A Lightning deposit's invoice is made first, outside the transaction (docs/design.md, "Lightning").
  const lightning =
    body.deposit === 'lightning'
      ? await createSellInvoice(
          assertLightningSell(pricing.priced.settings, deps.lightning, pricing.priced.figures.amountSats),
          { amountSats: pricing.priced.figures.amountSats, quoteExpiresAt: pricing.priced.quoteExpiresAt },
          deps.now(),
        )
      : {};
  return deps.db.transaction(async (tx) => {
    const { tier, priced } = await lockPricedOrder(deps, tx, user, body, pricing);
    const place = await checkPlaceForMoneyRoute(tx, {
      userId: user.id,
      side: 'sell',
      route: 'order-save',
      valueCents: priced.figures.valueCents,
    });
    const { twin, used } = await findTwinAndWindowUse(
      tx,
      {
        userId: user.id,
        type: 'sell',
        amountSats: priced.figures.amountSats,
        valueCents: priced.figures.valueCents,
        walletAddress: null,
        paymentMethod: priced.paymentMethod,
      },
      windowStarts(deps.now()),
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
    const deposit = await allocateDepositAddress(tx, {
      depositXpub: deps.depositXpub,
      network: deps.network,
    });
    const order = await insertOrderCreated(
      tx,
      {
        userId: user.id,
        type: 'sell',
        ...priced.figures,
        priceSnapshotId: priced.snapshot.id,
        quoteExpiresAt: priced.quoteExpiresAt,
        paymentMethod: priced.paymentMethod,
        receivingDetails: priced.receivingDetails,
        jurisdictionVersion: place.version,
        jurisdictionCode: place.code,
        ...deposit,
        ...lightning,
      },
      `user:${user.id}`,
    );
    await claimOrderQuote(tx, priced, order.id, deps.now());
    if (walletOwnership) await keepTravelRuleRecord(tx, { order, user, answer: walletOwnership });
    return order;
  });
}
