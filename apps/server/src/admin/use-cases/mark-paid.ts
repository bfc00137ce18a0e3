import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { confirmPayment } from '../admin-orders.repository';
import { runOrderAction, type OrderActionDeps, type OrderActionRequest } from './run-order-action';

/**
 * Why this order cannot be marked paid (409), asked on the locked order by the action and, before any
 * request is recorded, by four eyes. A flagged buy is held: the flag may say the transfer is claimed
 * for another order too.
 */
export function assertMayMarkPaid(order: OrderRow): void {
  if (order.type !== 'buy' || order.status !== 'processing') {
    throw new AppError(
      'CONFLICT',
      `Only a processing buy can be marked paid; this order is a ${order.status} ${order.type}.`,
    );
  }
  if (order.paymentConfirmedAt) throw new AppError('CONFLICT', 'This payment is already marked as received.');
  if (order.flag) throw new AppError('CONFLICT', 'Resolve the flag first.');
}

/** A person checked the bank or Zelle account: the buy's payment arrived, so its bitcoin may be sent. */
export async function markPaid(deps: OrderActionDeps, request: OrderActionRequest): Promise<OrderRow> {
  return runOrderAction(deps, { ...request, action: 'order.mark_paid' }, async (tx, order) => {
    assertMayMarkPaid(order);
    const updated = await confirmPayment(tx, order.id, request.staff.user.email);
    if (!updated) throw new AppError('CONFLICT', 'This order changed meanwhile. Reload it.');
    return updated;
  });
}
