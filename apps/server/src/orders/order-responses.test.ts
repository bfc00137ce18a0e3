import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orderSchema } from '@offzero/shared/api/orders';
import type { OrderRow } from '../db/schema';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { buyOrderPayload } from '../test/buy-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

/**
 * A presenter that leaks internal columns, as a careless change could: the route's response schema
 * must strip every field it does not name, so none of them reaches the customer.
 */
vi.mock('./order.presenter', async (importOriginal) => {
  const original = await importOriginal<typeof import('./order.presenter')>();
  return {
    ...original,
    toOrderResponse: (row: OrderRow) => ({
      ...original.toOrderResponse(row),
      depositIndex: 7,
      flagNote: 'internal note for the back office',
      paypalCaptureId: 'CAPTURE-SECRET',
      paymentConfirmedBy: 'admin:someone',
    }),
  };
});

let t: TestApp;
let ada: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp();
  ada = await registerVerifiedCustomer(t, 'ada.responses@example.com');
});
afterAll(async () => t.close());

const LEAKED = ['depositIndex', 'flagNote', 'paypalCaptureId', 'paymentConfirmedBy'];
const ORDER_FIELDS = Object.keys(orderSchema.shape).sort();

describe('order answers carry only what their response schema names', () => {
  it('strips internal columns from the saved order and from the list', async () => {
    const saved = await t.request({
      method: 'POST',
      url: '/api/order/save',
      headers: ada.auth,
      payload: await buyOrderPayload(t, ada, 100),
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(Object.keys(saved.json()).sort()).toEqual(['message', 'order']);
    const order = saved.json<{ order: Record<string, unknown> }>().order;
    // Every field of the contract that has a value is there; nothing else is.
    for (const field of Object.keys(order)) expect(ORDER_FIELDS).toContain(field);
    expect(order).toMatchObject({ type: 'buy', status: 'pending', value: 100 });
    for (const field of LEAKED) expect(saved.body).not.toContain(field);
    expect(saved.body).not.toContain('CAPTURE-SECRET');

    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/order/list?userId=${ada.userId}`,
      headers: ada.auth,
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().result.orders).toHaveLength(1);
    for (const field of LEAKED) expect(listed.body).not.toContain(field);
  });
});
