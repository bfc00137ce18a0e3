import type { Database } from '../../db/database';
import { findOrdersMatching, type AdminOrderFilters, type OrderWithEmail } from '../admin-orders.repository';

/** The order desk's search: one page of matching orders, newest first, and how many match in all. */
export async function searchOrders(
  deps: { db: Database },
  filters: AdminOrderFilters,
): Promise<{ rows: OrderWithEmail[]; total: number }> {
  return findOrdersMatching(deps.db, filters);
}
