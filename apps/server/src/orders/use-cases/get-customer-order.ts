import type { Database } from '../../db/database';
import type { OrderRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { findCustomerOrder } from '../order.repository';

/** The signed-in customer's order; another customer's order id answers exactly like a missing one (404). */
export async function getCustomerOrder(db: Database, user: UserRow, orderId: string): Promise<OrderRow> {
  const order = isUuid(orderId) ? await findCustomerOrder(db, user.id, orderId) : undefined;
  if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
  return order;
}
