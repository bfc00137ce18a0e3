import { randomBytes } from 'node:crypto';
import { formatUsd } from '@offzero/shared/money/money';
import { PayPalError, readPayPalOrder, type PayPalGateway } from './paypal-gateway';

interface DemoPayPalOrder {
  id: string;
  referenceId: string;
  valueCents: bigint;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  captureId: string | null;
  captureRequests: Map<string, string>;
}

/**
 * The demo stand-in for PayPal: the same interface and the same answers, with the customer's approval
 * given by the sandbox's own Approve / Cancel buttons instead of PayPal's window. Kept in memory.
 */
export function createDemoPayPalGateway() {
  const store = new Map<string, DemoPayPalOrder>();

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
