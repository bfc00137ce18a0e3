import type { FastifyBaseLogger } from 'fastify';
import type { ChainApi } from '../../../chain/chain-api';
import type { Database } from '../../../db/database';
import type { OrderRow } from '../../../db/schema';
import type { OrderNotifier } from '../../../orders/order-notifications';
import type { PriceBook } from '../../../prices/price-book';

/** What the deposit watcher is made with (`createDepositWatcher`). */
export interface DepositWatcherOptions {
  db: Database;
  chain: ChainApi;
  prices: PriceBook;
  /** Delivers, once committed, what a change wrote into the outbox for the order's customer. */
  notify: OrderNotifier;
  confirmationsRequired: number;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Told of each deposit credited, with its order (the `offzero_deposits_credited_total` metric, monitoring). */
  onCredited?: (order: OrderRow) => void;
}

/** What every use-case of the watcher reads: its options, with the clock decided. */
export type WatcherDeps = Omit<DepositWatcherOptions, 'now'> & { now: () => Date };
