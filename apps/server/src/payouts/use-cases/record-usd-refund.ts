import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { assertOrderAction } from '../../admin/order-action-rules';
import {
  actionFactsIn,
  adminActor,
  runOrderAction,
  type OrderActionDeps,
  type OrderActionRequest,
} from '../../admin/run-order-action';
import { recordOrderEvent } from '../btc-refund.repository';
import { movePayout } from '../payout-state';

/**
 * Staff sent a buy's dollars back the way the customer paid (the refund a scam cancel claimed,
 * docs/design.md "Places and the scam shield") and record the bank or Zelle reference: the refund
 * payout moves `requested` → `submitted` → `settled` under the order's lock, so two calls record it
 * once (the second answers 409), and the customer's timeline shows the refund with its reference.
 * The order stays cancelled.
 */
export async function recordUsdRefund(
  deps: OrderActionDeps,
  request: OrderActionRequest & { reference: string },
): Promise<OrderRow> {
  return runOrderAction(deps, { ...request, action: 'order.refund_usd' }, async (tx, order) => {
    const facts = await actionFactsIn(tx, deps, order);
    assertOrderAction('refund-usd', order, facts);
    // The rules allow it only while the refund is requested.
    if (!facts.refund) throw new AppError('CONFLICT', 'This order has no dollar refund to send.');
    const sending = await movePayout(tx, facts.refund, 'submitted');
    const refund = await movePayout(tx, sending, 'settled', { reference: request.reference });
    await recordOrderEvent(tx, order, {
      actor: adminActor(request.staff),
      reason: `dollars refunded by ${refund.rail}, reference ${request.reference}`,
      details: {
        event: 'refund_sent',
        payoutId: refund.id,
        rail: refund.rail,
        reference: request.reference,
        amountCents: order.valueCents.toString(),
      },
    });
    return order;
  });
}
