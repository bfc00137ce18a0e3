import type { CancelOrderRequest } from '@offzero/shared/api/orders';
import type { OrderRow, OrderStatus, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { moveOrder, OrderStateError } from '../order-state';
import { getCustomerOrder } from './get-customer-order';
import type { OrderDeps } from './order-deps';

const NOT_PENDING: Record<Exclude<OrderStatus, 'pending'>, string> = {
  processing:
    'This order is already being processed (your payment or deposit arrived), so it can no longer be cancelled. Contact support if something is wrong.',
  completed: 'This order is completed, so it can no longer be cancelled.',
  cancelled: 'This order is already cancelled.',
  expired: 'This order has expired, so there is nothing left to cancel.',
};

const ALREADY_PAID =
  'You already paid or sent bitcoin for this order, so it can no longer be cancelled. We will process it; contact support if something is wrong.';

/**
 * `POST /api/order/cancel` (docs/design.md): the customer cancels their own pending order and says why.
 * Only an order nobody has paid into: once a payment was submitted, captured or a deposit seen, the
 * money is on its way and staff decide. A sell's deposit address stays allocated to the order, so it
 * is never handed to anyone else.
 */
export async function cancelCustomerOrder(
  deps: Pick<OrderDeps, 'db' | 'notify'>,
  user: UserRow,
  body: CancelOrderRequest,
): Promise<OrderRow> {
  const order = await getCustomerOrder(deps.db, user, body._id);
  if (order.status !== 'pending') throw new AppError('CONFLICT', NOT_PENDING[order.status]);
  let cancelled: OrderRow;
  try {
    cancelled = await deps.db.transaction(async (tx) => {
      const moved = await moveOrder(tx, {
        orderId: order.id,
        from: ['pending'],
        to: 'cancelled',
        actor: `user:${user.id}`,
        reason: body.reason,
        patch: { cancelReason: body.reason },
      });
      // `moveOrder` read the row under its lock: a payment or deposit recorded meanwhile rolls this back.
      if (wasPaid(moved)) throw new AppError('CONFLICT', ALREADY_PAID);
      return moved;
    });
  } catch (error) {
    // Another request, the expiry job or the deposit watcher moved it first.
    if (error instanceof OrderStateError) {
      const now = await getCustomerOrder(deps.db, user, order.id);
      throw new AppError('CONFLICT', now.status === 'pending' ? error.message : NOT_PENDING[now.status]);
    }
    throw error;
  }
  await deps.notify(cancelled);
  return cancelled;
}

function wasPaid(order: OrderRow): boolean {
  return (
    order.paymentSubmittedAt !== null ||
    order.paymentConfirmedAt !== null ||
    order.paypalCaptureId !== null ||
    order.bankTxn !== null ||
    (order.type === 'sell' && (order.txn !== null || order.receivedSats !== null))
  );
}
