import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../../db/database';
import type { InboxService } from '../../../inbox/inbox.service';
import type { OrderNotifier } from '../../../orders/order-notifications';
import type { PayPalGateway } from '../paypal-gateway';

/** What the PayPal service is made with (`createPayPalService`). */
export interface PayPalServiceOptions {
  db: Database;
  gateway: PayPalGateway;
  notify: OrderNotifier;
  /** Where verified webhooks are stored before they are answered, and applied from. */
  inbox: Pick<InboxService, 'receive' | 'register'>;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** What every PayPal use-case reads: the service's options, with the clock decided. */
export type PayPalDeps = Omit<PayPalServiceOptions, 'now'> & { now: () => Date };

/** The inbox provider name of PayPal's webhooks. */
export const PAYPAL_WEBHOOK_PROVIDER = 'paypal';
