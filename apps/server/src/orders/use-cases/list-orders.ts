import type { Database } from '../../db/database';
import type { OrderRow, UserRow } from '../../db/schema';
import { listCustomerOrders } from '../order.repository';

/** Without a limit, the newest thousand. */
const DEFAULT_LIST_LIMIT = 1_000;

/** The customer's own orders, newest first. */
export async function listOrders(
  db: Database,
  user: UserRow,
  limit: number | undefined,
): Promise<OrderRow[]> {
  return listCustomerOrders(db, user.id, limit ?? DEFAULT_LIST_LIMIT);
}
