import { count } from 'drizzle-orm';
import type { Database } from '../db/database';
import { orders, type OrderRow } from '../db/schema';

export { countPendingOutbox } from '../outbox/outbox.repository';

/** How many orders there are of each type and status (only the pairs that exist). */
export async function countOrdersByTypeAndStatus(
  db: Database,
): Promise<{ type: OrderRow['type']; status: OrderRow['status']; count: number }[]> {
  return db
    .select({ type: orders.type, status: orders.status, count: count() })
    .from(orders)
    .groupBy(orders.type, orders.status);
}
