import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../db/schema';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { buyOrderPayload, confirmPayoutAddresses, placeBuyOrder, TEST_WALLET } from '../../test/buy-helpers';
import { startPayPalRestApiServer, type PayPalRestApiServer } from '../../test/paypal-rest-api-server';

const createPayPal = (t: TestApp, who: RegisteredCustomer, orderId: string) =>
  t.request({ method: 'POST', url: '/api/payments/paypal/orders', headers: who.auth, payload: { orderId } });
const capture = (t: TestApp, who: RegisteredCustomer, paypalOrderId: string, orderId: string) =>
  t.request({
    method: 'POST',
    url: `/api/payments/paypal/orders/${paypalOrderId}/capture`,
    headers: who.auth,
    payload: { orderId },
  });

describe('PayPal demo sandbox', () => {
  let t: TestApp;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;
  beforeAll(async () => {
    t = await createTestApp();
    ada = await registerVerifiedCustomer(t, 'ada.paypal@example.com');
    bob = await registerVerifiedCustomer(t, 'bob.paypal@example.com');
  });
  afterAll(async () => t.close());

  it('creates, is approved in the sandbox, captures: the order is processing with the capture id', async () => {
    const orderId = await placeBuyOrder(t, ada, 150);
    const { id } = (await createPayPal(t, ada, orderId)).json();
    expect(id).toMatch(/^DEMO-/);
    const early = await capture(t, ada, id, orderId);
    expect(early.statusCode).toBe(400);
    expect(early.json().message).toBe('Approve the payment in PayPal first.');
    expect(
      (await t.request({ method: 'POST', url: `/api/dev/paypal/orders/${id}/approve`, headers: ada.auth }))
        .statusCode,
    ).toBe(200);
    const captured = await capture(t, ada, id, orderId);
    expect(captured.statusCode).toBe(200);
    expect(captured.json().order).toMatchObject({
      status: 'processing',
      payment: { method: 'paypal', status: 'COMPLETED' },
    });
    expect(captured.json().order.bankTxn).toMatch(/^DEMOCAP-/);
    // Paying the same order twice is refused.
    expect((await capture(t, ada, id, orderId)).statusCode).toBe(409);
    expect((await createPayPal(t, ada, orderId)).statusCode).toBe(409);
  });

  it('never says the bitcoin is on its way while it waits for the e-mailed address confirmation', async () => {
    const pay = async (orderId: string) => {
      const { id } = (await createPayPal(t, ada, orderId)).json();
      await t.request({ method: 'POST', url: `/api/dev/paypal/orders/${id}/approve`, headers: ada.auth });
      return capture(t, ada, id, orderId);
    };
    const waits = 'We send your bitcoin once you confirm the address: open the link we e-mailed you.';
    const saved = await t.request({
      method: 'POST',
      url: '/api/order/save',
      headers: ada.auth,
      payload: await buyOrderPayload(t, ada, 80, { walletAddress: TEST_WALLET }),
    });
    expect(saved.json().order.payoutHold).toBe(waits);
    const unconfirmed = await pay(saved.json().order._id);
    expect(unconfirmed.statusCode).toBe(200);
    expect(unconfirmed.json()).toMatchObject({
      message: `Payment received. ${waits}`,
      order: { payoutHold: waits },
    });

    await confirmPayoutAddresses(t, ada);
    const confirmed = await pay(await placeBuyOrder(t, ada, 81));
    expect(confirmed.json().message).toBe('Payment received. Your bitcoin is on its way.');
    expect(confirmed.json().order).not.toHaveProperty('payoutHold');
  });

  it('credits two simultaneous captures of one order once', async () => {
    const orderId = await placeBuyOrder(t, ada, 90);
    const { id } = (await createPayPal(t, ada, orderId)).json();
    await t.request({ method: 'POST', url: `/api/dev/paypal/orders/${id}/approve`, headers: ada.auth });
    const answers = await Promise.all([
      capture(t, ada, id, orderId),
      capture(t, ada, id, orderId),
      capture(t, ada, id, orderId),
    ]);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(2);
  });

  it('refuses one PayPal payment presented for a second order', async () => {
    const first = await placeBuyOrder(t, ada, 60);
    const second = await placeBuyOrder(t, ada, 61);
    const { id } = (await createPayPal(t, ada, first)).json();
    await t.request({ method: 'POST', url: `/api/dev/paypal/orders/${id}/approve`, headers: ada.auth });
    const wrongOrder = await capture(t, ada, id, second);
    expect(wrongOrder.statusCode).toBe(400);
    expect(wrongOrder.json().message).toBe('This PayPal payment belongs to another order.');
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, second));
    expect(row?.status).toBe('pending');
  });

  it("refuses another customer's order (404) and a cancelled sandbox payment", async () => {
    const orderId = await placeBuyOrder(t, ada, 70);
    expect((await createPayPal(t, bob, orderId)).statusCode).toBe(404);
    const { id } = (await createPayPal(t, ada, orderId)).json();
    expect((await capture(t, bob, id, orderId)).statusCode).toBe(404);
    await t.request({ method: 'POST', url: `/api/dev/paypal/orders/${id}/cancel`, headers: ada.auth });
    expect((await capture(t, ada, id, orderId)).statusCode).toBe(400);
  });

  it('refuses to start a payment on an expired quote', async () => {
    const orderId = await placeBuyOrder(t, ada, 55);
    await t.database.db
      .update(orders)
      .set({ quoteExpiresAt: new Date(Date.now() - 1) })
      .where(eq(orders.id, orderId));
    expect((await createPayPal(t, ada, orderId)).statusCode).toBe(410);
  });
});

describe('PayPal REST adapter (a local server speaking PayPal’s API)', () => {
  let paypalApi: PayPalRestApiServer;
  let t: TestApp;
  let ada: RegisteredCustomer;

  beforeAll(async () => {
    paypalApi = await startPayPalRestApiServer();
    t = await createTestApp({}, undefined, { providers: { paypal: paypalApi.gateway } });
    ada = await registerVerifiedCustomer(t, 'ada.paypal-rest@example.com');
  });
  afterAll(async () => {
    await t.close();
    await paypalApi.close();
  });

  it('creates a PayPal order for the order’s value with our order id, and captures it with a request id', async () => {
    const orderId = await placeBuyOrder(t, ada, 123.45);
    const { id } = (await createPayPal(t, ada, orderId)).json();
    expect(paypalApi.orders.get(id)).toMatchObject({
      referenceId: orderId,
      value: '123.45',
      captureStatus: null,
    });
    const captured = await capture(t, ada, id, orderId);
    expect(captured.statusCode).toBe(200);
    expect(captured.json().order.status).toBe('processing');
    const captureCall = paypalApi.log.find(
      (entry) => entry.path === `POST /v2/checkout/orders/${id}/capture`,
    );
    expect(captureCall?.requestId).toBe(`capture-${orderId}`);
    // No demo sandbox in this mode.
    expect(
      (await t.request({ method: 'POST', url: `/api/dev/paypal/orders/${id}/approve`, headers: ada.auth }))
        .statusCode,
    ).toBe(404);
  });

  it('reads back an order already captured at PayPal (a retried capture) and credits it once', async () => {
    const orderId = await placeBuyOrder(t, ada, 30);
    const { id } = (await createPayPal(t, ada, orderId)).json();
    paypalApi.orders.get(id)!.captureStatus = 'COMPLETED'; // captured, but our first answer was lost
    const captured = await capture(t, ada, id, orderId);
    expect(captured.statusCode).toBe(200);
    expect(paypalApi.log.some((entry) => entry.path === `GET /v2/checkout/orders/${id}`)).toBe(true);
  });

  it('flags a capture whose amount differs from the order and does not credit it', async () => {
    const orderId = await placeBuyOrder(t, ada, 200);
    const { id } = (await createPayPal(t, ada, orderId)).json();
    paypalApi.captureAmountOverride = '2.00';
    try {
      const response = await capture(t, ada, id, orderId);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toMatch(/did not confirm the full payment/);
    } finally {
      paypalApi.captureAmountOverride = null;
    }
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ status: 'pending', flag: 'capture_mismatch', paypalCaptureId: null });
  });
});
