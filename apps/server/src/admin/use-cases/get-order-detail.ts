import type { Database } from '../../db/database';
import { AppError } from '../../http/errors';
import {
  findOrder,
  findOrderCustomer,
  findOrderDeposits,
  findOrderTimeline,
} from '../admin-orders.repository';

/** One order with its customer, its state changes and the deposits seen for it. */
export async function getOrderDetail(deps: { db: Database; confirmationsRequired: number }, orderId: string) {
  const order = await findOrder(deps.db, orderId);
  if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
  const [customer, timeline, deposits] = await Promise.all([
    findOrderCustomer(deps.db, order.userId),
    findOrderTimeline(deps.db, order.id),
    findOrderDeposits(deps.db, order.id),
  ]);
  return { order, customer, timeline, deposits, confirmationsRequired: deps.confirmationsRequired };
}
