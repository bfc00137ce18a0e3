import type { SaveOrderRequest } from '@offzero/shared/api/orders';
import type { OrderRow, UserRow } from '../../db/schema';
import { allocateDepositAddress } from '../../deposits/allocate-deposit-address';
import { insertOrderCreated, lockCustomerForSave } from '../order-save.repository';
import { findTwinAndWindowUse } from '../order-twins.repository';
import { assertUseWithinTradingLimits } from '../../limits/limits.service';
import { windowStarts } from '../../limits/trading-limits';
import type { OrderDeps } from './order-deps';
import { claimOrderQuote, priceSellFromQuote } from './price-from-quote';
import { keepTravelRuleRecord, travelRuleAnswer } from './travel-rule';
import { priceSellOrder } from './price-order';

/**
 * A new pending sell at the server's figures (or its locked quote's), with a deposit address of its own that was never used
 * before (the next index of the sequence; an index a failed save took is skipped, never handed out again).
 * The same sell saved again within 10 seconds (a double click) answers the first order and takes no
 * second address (docs/design.md).
 */
export async function saveSellOrder(
  deps: Pick<OrderDeps, 'db' | 'prices' | 'network' | 'depositXpub' | 'now'>,
  user: UserRow,
  body: SaveOrderRequest,
): Promise<OrderRow> {
  const { quoteId } = body;
  // Against a locked quote its figures hold; otherwise the server re-prices from a price it served.
  const priced = quoteId
    ? await priceSellFromQuote(deps, user, { ...body, quoteId })
    : await priceSellOrder(deps, user, body);
  return deps.db.transaction(async (tx) => {
    const tier = await lockCustomerForSave(tx, user.id);
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
        ...deposit,
      },
      `user:${user.id}`,
    );
    await claimOrderQuote(tx, priced, order.id, deps.now());
    if (walletOwnership) await keepTravelRuleRecord(tx, { order, user, answer: walletOwnership });
    return order;
  });
}
