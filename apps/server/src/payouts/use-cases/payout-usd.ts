import type { OrderRow } from '../../db/schema';
import { moveOrder } from '../../orders/order-state';
import { assertOrderAction } from '../../admin/order-action-rules';
import { movePayout, recordSettledPayout } from '../payout-state';
import { usdPayoutRail } from '../payout-rail';
import { checkPlaceForMoneyRoute } from '../../places/place-check';
import {
  actionFactsIn,
  adminActor,
  runOrderAction,
  type OrderActionDeps,
  type OrderActionRequest,
} from '../../admin/run-order-action';

/**
 * The dollars of a confirmed sell were paid to the customer (bank reference `reference`): it completes.
 * The payout row (one per order, settled at once: staff paid outside) commits with the move, under the order's lock: one payout, whoever calls.
 * A payout sent in the day's ACH file is settled with the bank's reference instead.
 */
export async function payoutUsd(
  deps: OrderActionDeps,
  request: OrderActionRequest & { reference: string },
): Promise<OrderRow> {
  return runOrderAction(deps, { ...request, action: 'order.payout_usd' }, async (tx, order) => {
    const facts = await actionFactsIn(tx, deps, order);
    assertOrderAction('payout-usd', order, facts);
    // A place closed for selling since the sell was saved: no dollars leave (docs/design.md, "Places and the scam shield").
    await checkPlaceForMoneyRoute(tx, { userId: order.userId, side: 'sell', route: 'payout' });
    if (facts.payout?.state === 'submitted') {
      // Sent in the day's ACH file (the rules allow no other payout in flight): the bank confirmed it.
      await movePayout(tx, facts.payout, 'settled', { reference: request.reference });
    } else {
      await recordSettledPayout(
        tx,
        {
          orderId: order.id,
          kind: 'usd',
          rail: usdPayoutRail(order),
          sender: 'operator',
          address: null,
          amountSats: null,
          createdBy: adminActor(request.staff),
        },
        { reference: request.reference },
      );
    }
    return moveOrder(tx, {
      orderId: order.id,
      from: ['processing'],
      to: 'completed',
      actor: adminActor(request.staff),
      reason: 'dollars paid to the customer',
      patch: { bankTxn: request.reference },
      details: { reference: request.reference },
    });
  });
}
