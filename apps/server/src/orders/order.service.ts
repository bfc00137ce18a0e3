import type { CancelOrderRequest, SaveOrderRequest, UpdateOrderRequest } from '@offzero/shared/api/orders';
import type { BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import type { Database } from '../db/database';
import type { OrderRow, UserRow } from '../db/schema';
import type { PayoutAddressService } from '../payout-addresses/payout-address.service';
import { customerPayoutHolds } from '../payout-addresses/payout-destination';
import type { PriceBook } from '../prices/price-book';
import type { OrderNotifier } from './order-notifications';
import { cancelCustomerOrder } from './use-cases/cancel-order';
import { expireOverdueOrders } from './use-cases/expire-orders';
import { listOrders } from './use-cases/list-orders';
import type { OrderDeps } from './use-cases/order-deps';
import { saveBuyOrder } from './use-cases/save-buy-order';
import { saveSellOrder } from './use-cases/save-sell-order';
import { updateOrder } from './use-cases/update-order';

/**
 * The customer's order use-cases, wired to their dependencies. Each rule lives in its own file under
 * `use-cases/` (saving a buy or a sell, re-quoting, recording a payment, expiring); the SQL lives in
 * `order.repository.ts`; status changes only go through `moveOrder` (order-state.ts).
 */
export function createOrderService(deps: {
  db: Database;
  prices: PriceBook;
  network: BitcoinNetwork;
  /** The operator's BIP84 account key that sell deposit addresses are derived from. */
  depositXpub: string;
  notify: OrderNotifier;
  payoutAddresses: PayoutAddressService;
  now?: () => Date;
}) {
  const wired: OrderDeps = { ...deps, now: deps.now ?? (() => new Date()) };
  return {
    save: (user: UserRow, body: SaveOrderRequest): Promise<OrderRow> =>
      body.type === 'sell' ? saveSellOrder(wired, user, body) : saveBuyOrder(wired, user, body),
    update: (user: UserRow, body: UpdateOrderRequest): Promise<{ order: OrderRow; message: string }> =>
      updateOrder(wired, user, body),
    /** The customer cancels their own pending order, with a reason. */
    cancel: (user: UserRow, body: CancelOrderRequest): Promise<OrderRow> =>
      cancelCustomerOrder(wired, user, body),
    list: (user: UserRow, limit: number | undefined): Promise<OrderRow[]> =>
      listOrders(wired.db, user, limit),
    /** Why each unsettled buy's bitcoin waits for its payout address, in the customer's words. */
    payoutHolds: (orders: readonly OrderRow[]): Promise<Map<string, string>> =>
      customerPayoutHolds(wired.db, orders, wired.now()),
    /** Expires pending orders whose quote lock or deposit window ran out; answers how many. */
    expireOverdue: (): Promise<number> => expireOverdueOrders(wired),
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
