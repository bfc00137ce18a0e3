import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { confirmPayment } from '../admin-orders.repository';
import { runOrderAction, type OrderActionDeps, type OrderActionRequest } from './run-order-action';

/** A person checked the bank or Zelle account: the buy's payment arrived, so its bitcoin may be sent. */
export async function markPaid(deps: OrderActionDeps, request: OrderActionRequest): Promise<OrderRow> {
  return runOrderAction(deps, { ...request, action: 'order.mark_paid' }, async (tx, order) => {
    if (order.type !== 'buy' || order.status !== 'processing') {
      throw new AppError(
        'CONFLICT',
        `Only a processing buy can be marked paid; this order is a ${order.status} ${order.type}.`,
      );
    }
    if (order.paymentConfirmedAt)
      throw new AppError('CONFLICT', 'This payment is already marked as received.');
    const updated = await confirmPayment(tx, order.id, request.staff.user.email);
    if (!updated) throw new AppError('CONFLICT', 'This order changed meanwhile. Reload it.');
    return updated;
  });
}
