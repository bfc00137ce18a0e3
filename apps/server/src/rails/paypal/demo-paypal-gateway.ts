import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { formatUsd } from '@offzero/shared/money/money';
import type { Database } from '../../db/database';
import {
  approveDemoPayPalOrder,
  captureDemoPayPalOrder,
  demoPayPalWebhookKey,
  findDemoPayPalOrder,
  findDemoPayPalOrderByCapture,
  insertDemoPayPalOrder,
  refundDemoPayPalCapture,
  voidDemoPayPalOrder,
  type DemoPayPalOrderRow,
} from './demo-paypal.repository';
import { PayPalError, readPayPalOrder, type PayPalGateway } from './paypal-gateway';

/** The algorithm the sandbox names in `paypal-auth-algo` for its own signatures. */
export const DEMO_WEBHOOK_ALGORITHM = 'DemoHmacSHA256';

/** A webhook as the sandbox sends it: the exact bytes and PayPal's signature headers. */
export interface DemoWebhookDelivery {
  rawBody: Buffer;
  headers: Record<string, string>;
}

/**
 * The sandbox's webhook key (kept in the database, so every process signs and verifies alike) and the
 * deliveries it signs.
 */
function demoWebhookSigner(db: Database) {
  let webhookKey: Promise<Buffer> | null = null;
  const key = () => {
    webhookKey ??= demoPayPalWebhookKey(db, randomBytes(32)).catch((error: unknown) => {
      webhookKey = null;
      throw error;
    });
    return webhookKey;
  };

  const signature = async (transmissionId: string, transmissionTime: string, rawBody: Buffer) =>
    createHmac('sha256', await key())
      .update(`${transmissionId}|${transmissionTime}|${createHash('sha256').update(rawBody).digest('hex')}`)
      .digest();

  /** Signs an event as the sandbox sends it. */
  async function signedDelivery(event: object): Promise<DemoWebhookDelivery> {
    const rawBody = Buffer.from(JSON.stringify(event));
    const transmissionId = randomUUID();
    const transmissionTime = new Date().toISOString();
    return {
      rawBody,
      headers: {
        'paypal-auth-algo': DEMO_WEBHOOK_ALGORITHM,
        'paypal-cert-url': 'demo:sandbox',
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-sig': (await signature(transmissionId, transmissionTime, rawBody)).toString(
          'base64',
        ),
        'paypal-transmission-time': transmissionTime,
      },
    };
  }

  return { signature, signedDelivery };
}

/** A sandbox order as PayPal's Orders v2 answers it. */
function answer(order: DemoPayPalOrderRow) {
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

/**
 * The demo stand-in for PayPal: the same interface and the same answers, with the customer's approval
 * given by the sandbox's own Approve / Cancel buttons instead of PayPal's window. Its orders, captures,
 * refunds and webhook key live in the database (demo-paypal.repository.ts), as PayPal's live at PayPal:
 * an order created through one server process is approved, captured and refunded through any other,
 * and a webhook signed by one verifies in all. Its webhooks are signed with that key (HMAC-SHA256 over
 * the transmission id, time and the body's digest), which only it verifies.
 */
export function createDemoPayPalGateway(db: Database) {
  const { signature, signedDelivery } = demoWebhookSigner(db);

  const notFound = () => new PayPalError('No such PayPal order', 'RESOURCE_NOT_FOUND');

  const gateway: PayPalGateway & {
    kind: 'demo';
    approve(id: string): Promise<void>;
    cancel(id: string): Promise<void>;
    refund(captureId: string): Promise<DemoWebhookDelivery>;
    signedDelivery(event: object): Promise<DemoWebhookDelivery>;
  } = {
    kind: 'demo',
    clientId: null,
    async createOrder({ orderId, valueCents }) {
      const id = `DEMO-${randomBytes(8).toString('hex').toUpperCase()}`;
      await insertDemoPayPalOrder(db, { id, referenceId: orderId, valueCents });
      return { id };
    },
    async capture(paypalOrderId, requestId) {
      const captured = await captureDemoPayPalOrder(db, paypalOrderId, {
        captureId: `DEMOCAP-${randomBytes(8).toString('hex').toUpperCase()}`,
        requestId,
      });
      if (captured) return answer(captured);
      const order = await findDemoPayPalOrder(db, paypalOrderId);
      if (!order) throw notFound();
      // A retried capture (same request id, wherever it lands) answers the first one.
      if (order.status === 'COMPLETED' && order.captureRequestId === requestId) return answer(order);
      if (order.status === 'COMPLETED')
        throw new PayPalError('Order already captured', 'ORDER_ALREADY_CAPTURED');
      throw new PayPalError('The buyer has not approved this payment', 'ORDER_NOT_APPROVED');
    },
    async getOrder(paypalOrderId) {
      const order = await findDemoPayPalOrder(db, paypalOrderId);
      if (!order) throw notFound();
      return answer(order);
    },
    async verifyWebhook(rawBody, headers) {
      const transmissionId = headers['paypal-transmission-id'];
      const transmissionTime = headers['paypal-transmission-time'];
      const given = headers['paypal-transmission-sig'];
      if (headers['paypal-auth-algo'] !== DEMO_WEBHOOK_ALGORITHM) return false;
      if (!transmissionId || !transmissionTime || !given) return false;
      let expected: Buffer;
      try {
        expected = await signature(transmissionId, transmissionTime, rawBody);
      } catch (error) {
        // As PayPal unreachable: the sender retries.
        throw new PayPalError(
          `The demo sandbox cannot read its webhook key: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      const presented = Buffer.from(given, 'base64');
      return presented.length === expected.length && timingSafeEqual(presented, expected);
    },
    /** The merchant refunds a capture in full: PayPal's `PAYMENT.CAPTURE.REFUNDED` webhook, signed. */
    async refund(captureId) {
      const refundId = `DEMOREF-${randomBytes(8).toString('hex').toUpperCase()}`;
      const order = await refundDemoPayPalCapture(db, captureId, refundId);
      if (!order) {
        if (!(await findDemoPayPalOrderByCapture(db, captureId)))
          throw new PayPalError('No capture has this id in the sandbox', 'RESOURCE_NOT_FOUND');
        throw new PayPalError('This capture was already refunded', 'CAPTURE_FULLY_REFUNDED');
      }
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
    async approve(id) {
      if (!(await approveDemoPayPalOrder(db, id)))
        throw new PayPalError('This PayPal payment cannot be approved now', 'ORDER_NOT_APPROVABLE');
    },
    async cancel(id) {
      await voidDemoPayPalOrder(db, id);
    },
  };
  return gateway;
}

export type DemoPayPalGateway = ReturnType<typeof createDemoPayPalGateway>;
