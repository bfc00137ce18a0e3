import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { moveOrder } from '../../orders/order-state';
import {
  adminActor,
  runOrderAction,
  type OrderActionDeps,
  type OrderActionRequest,
} from './run-order-action';

/** The bitcoin of a paid buy was sent (transaction `txid`): the order completes. */
export async function recordBtcPayout(
  deps: OrderActionDeps,
  request: OrderActionRequest & { txid: string },
): Promise<OrderRow> {
  const txid = request.txid.toLowerCase();
  return runOrderAction(deps, { ...request, action: 'order.payout_btc' }, async (tx, order) => {
    if (order.type !== 'buy') throw new AppError('CONFLICT', 'A bitcoin payout completes buy orders only.');
    if (order.status === 'processing' && !order.paymentConfirmedAt) {
      throw new AppError('CONFLICT', 'Mark the payment as received before sending the bitcoin.');
    }
    return moveOrder(tx, {
      orderId: order.id,
      from: ['processing'],
      to: 'completed',
      actor: adminActor(request.staff),
      reason: 'bitcoin sent to the customer',
      patch: { txn: txid },
      details: { txid },
    });
  });
}
