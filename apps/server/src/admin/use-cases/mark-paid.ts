import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { confirmPayment } from '../admin-orders.repository';
import { assertOrderAction } from '../order-action-rules';
import {
  actionFactsIn,
  runOrderAction,
  type OrderActionDeps,
  type OrderActionRequest,
} from '../run-order-action';

/** A person checked the bank or Zelle account: the buy's payment arrived, so its bitcoin may be sent. */
export async function markPaid(deps: OrderActionDeps, request: OrderActionRequest): Promise<OrderRow> {
  return runOrderAction(deps, { ...request, action: 'order.mark_paid' }, async (tx, order) => {
    assertOrderAction('mark-paid', order, await actionFactsIn(tx, deps, order));
    const updated = await confirmPayment(tx, order.id, request.staff.user.email);
    if (!updated) throw new AppError('CONFLICT', 'This order changed meanwhile. Reload it.');
    return updated;
  });
}
