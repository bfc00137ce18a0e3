import type { OrderRow, UserRow } from '../../db/schema';
import type { StoredWebhook } from '../../inbox/inbox.service';
import { readPayPalWebhookEvent, type PayPalWebhookEvent } from './paypal-webhook-event';
import { applyWebhookEvent } from './use-cases/apply-webhook-event';
import { capturePayment, createPayment } from './use-cases/pay-with-paypal';
import { PAYPAL_WEBHOOK_PROVIDER, type PayPalDeps, type PayPalServiceOptions } from './use-cases/paypal-deps';
import { reconcilePayPal } from './use-cases/reconcile-paypal';
import { receiveWebhook } from './use-cases/receive-webhook';

export { PAYPAL_WEBHOOK_PROVIDER } from './use-cases/paypal-deps';

/** What a PENDING capture tells the customer. */
export const PAYMENT_HELD_MESSAGE =
  'PayPal is holding this payment for review. We will send your bitcoin as soon as PayPal releases it.';

/**
 * PayPal payments, created and captured by the server (docs/design.md). A capture counts only
 * when PayPal itself says it is COMPLETED for exactly the order's value in USD; one PayPal order and one
 * capture can pay one OffZero order, once. Each step is a use-case in `use-cases/`.
 */
export function createPayPalService(options: PayPalServiceOptions) {
  const deps: PayPalDeps = { ...options, now: options.now ?? (() => new Date()) };
  const { gateway } = deps;

  // A stored webhook is verified again (outside the transaction: it may ask PayPal), then applied by
  // the inbox's job in the transaction that marks it processed: applied once.
  deps.inbox.register<PayPalWebhookEvent>(
    PAYPAL_WEBHOOK_PROVIDER,
    (tx, _delivery, event) => applyWebhookEvent(deps, tx, event),
    async (delivery: StoredWebhook) => {
      if (!(await gateway.verifyWebhook(delivery.rawBody, delivery.headers)))
        throw new Error('the stored webhook no longer verifies');
      const event = readPayPalWebhookEvent(delivery.rawBody);
      if (!event) throw new Error('the stored webhook is not a PayPal event');
      return event;
    },
  );

  return {
    gatewayKind: gateway.kind,
    createPayment: (user: UserRow, orderId: string): Promise<{ id: string }> =>
      createPayment(deps, user, orderId),
    capturePayment: (
      user: UserRow,
      paypalOrderId: string,
      orderId: string,
    ): Promise<{ order: OrderRow; held: boolean; payoutHold?: string }> =>
      capturePayment(deps, user, paypalOrderId, orderId),
    receiveWebhook: (rawBody: Buffer, headers: Record<string, unknown>): Promise<'stored' | 'replay'> =>
      receiveWebhook(deps, rawBody, headers),
    reconcile: (): Promise<Record<string, number>> => reconcilePayPal(deps),
  };
}

export type PayPalService = ReturnType<typeof createPayPalService>;
