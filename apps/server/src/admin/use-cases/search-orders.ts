import type { Database } from '../../db/database';
import { findOrdersMatching, type AdminOrderFilters, type OrderWithEmail } from '../admin-orders.repository';

/** The order desk's search: one page of matching orders, newest first, how many match, the next page's cursor. */
export async function searchOrders(
  deps: { db: Database },
  filters: AdminOrderFilters,
): Promise<{ rows: OrderWithEmail[]; total: number; nextCursor: string | null }> {
  return findOrdersMatching(deps.db, filters);
}
