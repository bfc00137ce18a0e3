import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { formatUsd } from '@offzero/shared/money/money';
import { PayPalError, readPayPalOrder, type PayPalGateway } from './paypal-gateway';

/** The algorithm the sandbox names in `paypal-auth-algo` for its own signatures. */
export const DEMO_WEBHOOK_ALGORITHM = 'DemoHmacSHA256';

/** A webhook as the sandbox sends it: the exact bytes and PayPal's signature headers. */
export interface DemoWebhookDelivery {
  rawBody: Buffer;
  headers: Record<string, string>;
}

interface DemoPayPalOrder {
  id: string;
  referenceId: string;
  valueCents: bigint;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  captureId: string | null;
  captureRequests: Map<string, string>;
  refunded: boolean;
}

/**
 * The demo stand-in for PayPal: the same interface and the same answers, with the customer's approval
 * given by the sandbox's own Approve / Cancel buttons instead of PayPal's window. Kept in memory. Its
 * webhooks are signed with a secret of its own (HMAC-SHA256 over the transmission id, time and the
 * body's digest), which only it verifies.
 */
export function createDemoPayPalGateway(options: { webhookSecret?: Buffer } = {}) {
  const store = new Map<string, DemoPayPalOrder>();
  const webhookSecret = options.webhookSecret ?? randomBytes(32);

  const signature = (transmissionId: string, transmissionTime: string, rawBody: Buffer) =>
    createHmac('sha256', webhookSecret)
      .update(`${transmissionId}|${transmissionTime}|${createHash('sha256').update(rawBody).digest('hex')}`)
      .digest();

  /** Signs an event as the sandbox sends it. */
  function signedDelivery(event: object): DemoWebhookDelivery {
    const rawBody = Buffer.from(JSON.stringify(event));
    const transmissionId = randomUUID();
    const transmissionTime = new Date().toISOString();
    return {
      rawBody,
      headers: {
        'paypal-auth-algo': DEMO_WEBHOOK_ALGORITHM,
        'paypal-cert-url': 'demo:sandbox',
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-sig': signature(transmissionId, transmissionTime, rawBody).toString('base64'),
        'paypal-transmission-time': transmissionTime,
      },
    };
  }

  function answer(order: DemoPayPalOrder) {
    return readPayPalOrder({
      id: order.id,
      status: order.status,
      purchase_units: [
        {
          reference_id: order.referenceId,
          payments: order.captureId
            ? {
                captures: [
                  {
                    id: order.captureId,
                    status: 'COMPLETED',
                    amount: { currency_code: 'USD', value: formatUsd(order.valueCents) },
                  },
                ],
              }
            : undefined,
        },
      ],
    });
  }

  const gateway: PayPalGateway & {
    kind: 'demo';
    approve(id: string): void;
    cancel(id: string): void;
    refund(captureId: string): DemoWebhookDelivery;
    signedDelivery(event: object): DemoWebhookDelivery;
  } = {
    kind: 'demo',
    clientId: null,
    async createOrder({ orderId, valueCents }) {
      const id = `DEMO-${randomBytes(8).toString('hex').toUpperCase()}`;
      store.set(id, {
        id,
        referenceId: orderId,
        valueCents,
        status: 'CREATED',
        captureId: null,
        captureRequests: new Map(),
        refunded: false,
      });
      return { id };
    },
    async capture(paypalOrderId, requestId) {
      const order = store.get(paypalOrderId);
      if (!order) throw new PayPalError('No such PayPal order', 'RESOURCE_NOT_FOUND');
      const earlier = order.captureRequests.get(requestId);
      if (earlier) return answer(order);
      if (order.status === 'COMPLETED')
        throw new PayPalError('Order already captured', 'ORDER_ALREADY_CAPTURED');
      if (order.status !== 'APPROVED')
        throw new PayPalError('The buyer has not approved this payment', 'ORDER_NOT_APPROVED');
      order.status = 'COMPLETED';
      order.captureId = `DEMOCAP-${randomBytes(8).toString('hex').toUpperCase()}`;
      order.captureRequests.set(requestId, order.captureId);
      return answer(order);
    },
    async getOrder(paypalOrderId) {
      const order = store.get(paypalOrderId);
      if (!order) throw new PayPalError('No such PayPal order', 'RESOURCE_NOT_FOUND');
      return answer(order);
    },
    async verifyWebhook(rawBody, headers) {
      const transmissionId = headers['paypal-transmission-id'];
      const transmissionTime = headers['paypal-transmission-time'];
      const given = headers['paypal-transmission-sig'];
      if (headers['paypal-auth-algo'] !== DEMO_WEBHOOK_ALGORITHM) return false;
      if (!transmissionId || !transmissionTime || !given) return false;
      const expected = signature(transmissionId, transmissionTime, rawBody);
      const presented = Buffer.from(given, 'base64');
      return presented.length === expected.length && timingSafeEqual(presented, expected);
    },
    /** The merchant refunds a capture in full: PayPal's `PAYMENT.CAPTURE.REFUNDED` webhook, signed. */
    refund(captureId) {
      const order = [...store.values()].find((candidate) => candidate.captureId === captureId);
      if (!order) throw new PayPalError('No capture has this id in the sandbox', 'RESOURCE_NOT_FOUND');
      if (order.refunded)
        throw new PayPalError('This capture was already refunded', 'CAPTURE_FULLY_REFUNDED');
      order.refunded = true;
      const refundId = `DEMOREF-${randomBytes(8).toString('hex').toUpperCase()}`;
      const amount = { currency_code: 'USD', value: formatUsd(order.valueCents) };
      return signedDelivery({
        id: `WH-DEMO-${randomBytes(8).toString('hex').toUpperCase()}`,
        event_version: '1.0',
        create_time: new Date().toISOString(),
        resource_type: 'refund',
        resource_version: '2.0',
        event_type: 'PAYMENT.CAPTURE.REFUNDED',
        summary: `A $ ${amount.value} USD capture payment was refunded`,
        resource: {
          id: refundId,
          status: 'COMPLETED',
          amount,
          links: [
            {
              href: `https://api.sandbox.paypal.com/v2/payments/refunds/${refundId}`,
              rel: 'self',
              method: 'GET',
            },
            {
              href: `https://api.sandbox.paypal.com/v2/payments/captures/${captureId}`,
              rel: 'up',
              method: 'GET',
            },
          ],
        },
      });
    },
    signedDelivery,
    approve(id) {
      const order = store.get(id);
      if (!order || order.status !== 'CREATED')
        throw new PayPalError('This PayPal payment cannot be approved now', 'ORDER_NOT_APPROVABLE');
      order.status = 'APPROVED';
    },
    cancel(id) {
      const order = store.get(id);
      if (order && order.status !== 'COMPLETED') order.status = 'VOIDED';
    },
  };
  return gateway;
}

export type DemoPayPalGateway = ReturnType<typeof createDemoPayPalGateway>;
