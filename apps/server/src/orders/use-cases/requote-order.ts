import type { SaveOrderRequest } from '@offzero/shared/api/orders';
import type { OrderRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { recordOrderRequoted } from '../order-state';
import { lockOrder, updatePendingQuote } from '../order.repository';
import { assertWithinTradingLimits } from '../../limits/limits.service';
import { linkBuyPayoutAddress } from './link-payout-address';
import type { OrderDeps } from './order-deps';
import { claimOrderQuote, lockPricedOrder, priceOrder } from '../pricing/price-order';
import { keepTravelRuleRecord, travelRuleAnswer } from './travel-rule';
import { checkPlaceForMoneyRoute, recordingShieldRefusals } from '../../places/place-check';
import { checkBuyShield, recordBuyShield } from '../../scam-shield/buy-shield';

export const REQUOTE_REASON = 'the customer confirmed again at the current price';

/**
 * Re-quotes a pending buy the customer is confirming again: fresh server figures, a new quote lock,
 * and an order event with the figures before and after (a price change is never unaudited). A sell
 * keeps its quote: it waits for its deposit at the address it was given.
 */
export async function requoteOrder(
  deps: Pick<OrderDeps, 'db' | 'prices' | 'network' | 'now' | 'payoutAddresses' | 'bank'>,
  user: UserRow,
  order: OrderRow,
  body: SaveOrderRequest,
): Promise<{ order: OrderRow; message: string }> {
  if (order.status !== 'pending')
    throw new AppError('CONFLICT', `This order is ${order.status}; it can no longer be changed.`);
  if (body.type !== order.type)
    throw new AppError('BAD_REQUEST', 'An order cannot change between buy and sell.');
  if (order.type === 'sell') {
    throw new AppError('CONFLICT', 'A sell order waits for your deposit; start a new sell to change it.');
  }
  const updated = await recordingShieldRefusals(deps.db, user.id, 'requote', async () => {
    const pricing = await priceOrder(deps, 'buy', user, body);
    return deps.db.transaction(async (tx) => {
      // Under the customer's lock like a new save: the new value replaces the old within the limits.
      const { tier, priced } = await lockPricedOrder(deps, tx, user, body, pricing);
      const { figures, snapshot, walletAddress, quoteExpiresAt } = priced;
      // The place and the scam shield as for a new buy (docs/design.md, "Places and the scam shield").
      const place = await checkPlaceForMoneyRoute(tx, {
        userId: user.id,
        side: 'buy',
        route: 'requote',
        valueCents: figures.valueCents,
      });
      // The figures replaced are read under the row lock, so the event records exactly what changed.
      const before = await lockOrder(tx, order.id);
      if (before?.status !== 'pending') return null;
      await assertWithinTradingLimits(tx, {
        userId: user.id,
        tier,
        valueCents: figures.valueCents,
        now: deps.now(),
        exceptOrderId: order.id,
      });
      const walletOwnership = travelRuleAnswer(figures.valueCents, body.walletOwnership);
      const payout = await linkBuyPayoutAddress(deps, tx, user.id, {
        payoutAddressId: body.payoutAddressId,
        walletAddress,
        addressScreened: priced.addressScreened,
      });
      const shield = await checkBuyShield(tx, {
        userId: user.id,
        settings: priced.settings,
        place,
        valueCents: figures.valueCents,
        scamCheck: body.scamCheck ?? before.scamCheck ?? undefined,
        walletAddress: payout.walletAddress,
        payoutAddressId: payout.payoutAddressId,
        now: deps.now(),
        exceptOrderId: order.id,
      });
      const after = await updatePendingQuote(
        tx,
        order.id,
        {
          ...figures,
          priceSnapshotId: snapshot.id,
          quoteExpiresAt,
          ...payout,
          jurisdictionVersion: place.version,
          jurisdictionCode: place.code,
          coolingUntil: shield.coolingUntil,
          scamCheck: shield.scamCheck ?? before.scamCheck,
        },
        deps.now(),
      );
      if (!after) return null;
      await recordBuyShield(tx, { userId: user.id, orderId: order.id, route: 'requote', shield });
      await claimOrderQuote(tx, priced, order.id, deps.now());
      await recordOrderRequoted(tx, { before, after, actor: `user:${user.id}`, reason: REQUOTE_REASON });
      if (walletOwnership) await keepTravelRuleRecord(tx, { order: after, user, answer: walletOwnership });
      return after;
    });
  });
  if (!updated) throw new AppError('CONFLICT', 'This order changed meanwhile. Reload and try again.');
  return { order: updated, message: 'Order updated with the new quote.' };
}
