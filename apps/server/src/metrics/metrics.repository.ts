import { count } from 'drizzle-orm';
import type { Database } from '../db/database';
import { orders, payouts, type OrderRow, type PayoutRow } from '../db/schema';

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

/** Payouts by the rail they left on and their state (how each ended, or that it is in flight). */
export async function countPayoutsByRailAndState(
  db: Database,
): Promise<{ rail: PayoutRow['rail']; state: PayoutRow['state']; count: number }[]> {
  return db
    .select({ rail: payouts.rail, state: payouts.state, count: count() })
    .from(payouts)
    .groupBy(payouts.rail, payouts.state);
}
