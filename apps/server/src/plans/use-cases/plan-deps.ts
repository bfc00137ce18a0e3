import type { FastifyBaseLogger } from 'fastify';
import type { BankProvider } from '../../bank/bank-provider';
import type { Database } from '../../db/database';
import type { OrderNotifier } from '../../orders/order-notifications';
import type { OrderService } from '../../orders/order.service';

/** What the recurring-buy use-cases work with; each takes the parts it needs. */
export interface PlanDeps {
  db: Database;
  now: () => Date;
  /** The bank that pulls each run's ACH debit. */
  bank: BankProvider;
  /** A run's buy goes through the customer's own quote and save, with every buy check. */
  orders: Pick<OrderService, 'lockQuote' | 'save' | 'assertMayBuy'>;
  /** Tells the customer of an order's change once it is committed. */
  notify: OrderNotifier;
  log: FastifyBaseLogger;
}
