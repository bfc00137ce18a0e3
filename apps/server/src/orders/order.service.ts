import type {
  CancelOrderRequest,
  OrderTimelineResponse,
  OrderOrigin,
  SaveOrderRequest,
  UpdateOrderRequest,
} from '@offzero/shared/api/orders';
import type { CreateQuoteRequest } from '@offzero/shared/api/quotes';
import type { BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import type { Database } from '../db/database';
import type { OrderRow, UserRow } from '../db/schema';
import type { PayoutAddressService } from '../payout-addresses/payout-address.service';
import { trackOutboxWrites } from '../outbox/outbox-writes';
import type { PriceBook } from '../prices/price-book';
import type { OrderNotifier } from './order-notifications';
import { cancelCustomerOrder } from './use-cases/cancel-order';
import { expireOverdueOrders } from './use-cases/expire-orders';
import { getOrderTimeline } from './use-cases/get-order-timeline';
import { listOrders } from './use-cases/list-orders';
import { lockQuote, type LockedQuoteResult } from './use-cases/lock-quote';
import type { OrderDeps } from './use-cases/order-deps';
import { saveBuyOrder } from './use-cases/save-buy-order';
import { saveSellOrder } from './use-cases/save-sell-order';
import { updateOrder } from './use-cases/update-order';
import { customerPayoutHold } from '../payout-addresses/payout-destination';
import { cancelBuyAsScam } from '../scam-shield/scam-cancel';
import type { LightningNode } from '../rails/lightning/lightning-node';
import { findGlobalSettings } from '../settings/global-settings.repository';
import { assertMayTrade } from './use-cases/assert-may-trade';

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
  /** Told of every order saved once it is committed (transaction monitoring queues its rules). */
  onSaved?: (order: OrderRow) => void;
  /** Confirmations a sell deposit needs before its dollars are sent (shown as "N of M"). */
  depositConfirmations: number;
  payoutAddresses: PayoutAddressService;
  lightning: LightningNode | null;
  /** The bank with an API: which networks reach a customer's bank (instant payouts). */
  bank: OrderDeps['bank'];
  now?: () => Date;
}) {
  const wired: OrderDeps = { ...deps, now: deps.now ?? (() => new Date()) };
  return {
    /** Locks a quote's figures for the customer until the order session timeout (docs/design.md). */
    lockQuote: (user: UserRow, body: CreateQuoteRequest): Promise<LockedQuoteResult> =>
      lockQuote(wired, user, body),
    /** "Cancel — I think this is a scam": the customer's buy cancelled until its payout starts. */
    cancelAsScam: (user: UserRow, orderId: string) => cancelBuyAsScam(wired, user, orderId),
    /** `origin` names a buy the customer did not start at checkout: a plan's run or a deposit. */
    save: async (user: UserRow, body: SaveOrderRequest, origin?: OrderOrigin): Promise<OrderRow> => {
      // Most saves write no notice (a new payout address's e-mail is the exception): their delivery
      // after commit is skipped without a query.
      const saved = await trackOutboxWrites(() =>
        body.type === 'sell' ? saveSellOrder(wired, user, body) : saveBuyOrder(wired, user, body, origin),
      );
      deps.onSaved?.(saved);
      return saved;
    },
    update: (user: UserRow, body: UpdateOrderRequest): Promise<{ order: OrderRow; message: string }> =>
      updateOrder(wired, user, body),
    /** The customer cancels their own pending order, with a reason. */
    cancel: (user: UserRow, body: CancelOrderRequest): Promise<OrderRow> =>
      cancelCustomerOrder(wired, user, body),
    /** Why a buy's bitcoin waits for its payout address (in the customer's words), if it does. */
    payoutHold: (order: OrderRow): Promise<string | undefined> =>
      customerPayoutHold(wired.db, order, wired.now()),
    /** The customer's orders, and why each unsettled buy's bitcoin waits for its payout address. */
    list: (
      user: UserRow,
      limit: number | undefined,
    ) => listOrders(wired.db, user, limit, wired.now()),
    /** The customer's timeline of one of their orders, in plain words. */
    timeline: (user: UserRow, orderId: string): Promise<OrderTimelineResponse> =>
      getOrderTimeline(wired.db, user, orderId, deps.depositConfirmations),
    /** The buy checks of a customer and an order size, without an order (a recurring plan's). */
    assertMayBuy: async (user: UserRow, valueCents: bigint): Promise<void> =>
      assertMayTrade(wired.db, user, await findGlobalSettings(wired.db), valueCents, 'buy'),
    /** Expires pending orders whose quote lock or deposit window ran out; answers how many. */
    expireOverdue: (): Promise<number> => expireOverdueOrders(wired),
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
