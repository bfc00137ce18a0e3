import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { moveOrder } from '../../orders/order-state';
import {
  adminActor,
  runOrderAction,
  type OrderActionDeps,
  type OrderActionRequest,
} from './run-order-action';

/** The dollars of a confirmed sell were paid to the customer (bank reference `reference`): it completes. */
export async function payoutUsd(
  deps: OrderActionDeps & { confirmationsRequired: number },
  request: OrderActionRequest & { reference: string },
): Promise<OrderRow> {
  const { confirmationsRequired } = deps;
  return runOrderAction(deps, { ...request, action: 'order.payout_usd' }, async (tx, order) => {
    if (order.type !== 'sell') throw new AppError('CONFLICT', 'A dollar payout completes sell orders only.');
    if (order.status === 'processing' && order.confirmations < confirmationsRequired) {
      throw new AppError(
        'CONFLICT',
        `Wait for ${confirmationsRequired} confirmations before paying out (now ${order.confirmations}).`,
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
