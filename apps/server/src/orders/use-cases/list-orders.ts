import type { Database } from '../../db/database';
import type { OrderLightningPayout } from '@offzero/shared/api/order-lightning';
import type { OrderRow, UserRow } from '../../db/schema';
import { lightningPayoutsOfOrders } from '../../rails/lightning/lightning-payout.presenter';
import { customerPayoutHolds } from '../../payout-addresses/payout-destination';
import { listCustomerOrdersWithPayoutEntries } from '../order.repository';

/** Without a limit, the newest thousand. */
const DEFAULT_LIST_LIMIT = 1_000;

/**
 * The customer's own orders, newest first, and why each unsettled buy's bitcoin waits for its payout
 * address (in the customer's words), read with the orders in one query; Lightning buys' payouts in one more.
 */
export async function listOrders(
  db: Database,
  user: UserRow,
  limit: number | undefined,
  now: Date,
): Promise<{
  orders: OrderRow[];
  holds: Map<string, string>;
  lightningPayouts: Map<string, OrderLightningPayout>;
}> {
  const listed = await listCustomerOrdersWithPayoutEntries(db, user.id, limit ?? DEFAULT_LIST_LIMIT);
  const holds = await customerPayoutHolds(db, listed, now);
  const orders = listed.map(({ order }) => order);
  return { orders, holds, lightningPayouts: await lightningPayoutsOfOrders(db, orders) };
}
