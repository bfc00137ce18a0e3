import type { SignedInUser } from '../../auth/sessions';
import type { OrderRow } from '../../db/schema';
import { moveOrder } from '../../orders/order-state';
import { assertOrderAction } from '../order-action-rules';
import { actionFactsIn, adminActor, runOrderAction, type OrderActionDeps } from '../run-order-action';

/** Cancels an order that has not completed, keeping the reason for the customer and the audit log. */
export async function cancelOrder(
  deps: OrderActionDeps,
  request: { staff: SignedInUser; orderId: string; reason: string },
): Promise<OrderRow> {
  const { reason } = request;
  return runOrderAction(deps, { ...request, note: reason, action: 'order.cancel' }, async (tx, order) => {
    assertOrderAction('cancel', order, await actionFactsIn(tx, deps, order));
    return moveOrder(tx, {
      orderId: order.id,
      from: ['pending', 'processing', 'expired'],
      to: 'cancelled',
      actor: adminActor(request.staff),
      reason,
      patch: { cancelReason: reason },
    });
  });
}
