import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orderEvents, orders, users, webhookDeliveries } from '../../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { buyOrderPayload, placeBuyOrder } from '../../test/buy-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { isDemoPayPalSandbox } from '../../providers/provider-registry';
import { createDemoPayPalGateway } from './demo-paypal-gateway';
import {
  PAYPAL_TEST_WEBHOOK_ID,
  paypalTestDelivery,
  paypalTestSignature,
  startPayPalRestApiServer,
  type PayPalRestApiServer,
} from '../../test/paypal-rest-api-server';

const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 50 });

const createPayPal = (t: TestApp, who: RegisteredCustomer, orderId: string) =>
  t.request({ method: 'POST', url: '/api/payments/paypal/orders', headers: who.auth, payload: { orderId } });
const capture = (t: TestApp, who: RegisteredCustomer, paypalOrderId: string, orderId: string) =>
  t.request({
    method: 'POST',
    url: `/api/payments/paypal/orders/${paypalOrderId}/capture`,
    headers: who.auth,
    payload: { orderId },
  });
const webhook = (t: TestApp, rawBody: Buffer | string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payments/paypal/webhook',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: rawBody,
  });
const orderRow = async (t: TestApp, orderId: string) =>
  (await t.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;
const isRestricted = async (t: TestApp, userId: string) =>
  (await t.database.db.select().from(users).where(eq(users.id, userId)))[0]!.restrictedAt !== null;
/** What the customer sees when they try a new buy. */
const saveBuy = async (t: TestApp, who: RegisteredCustomer) =>
  t.request({
    method: 'POST',
    url: '/api/order/save',
    headers: who.auth,
    payload: await buyOrderPayload(t, who, 40),
  });
const movesOf = async (t: TestApp, orderId: string, toStatus: 'processing' | 'cancelled') =>
  t.database.db
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, toStatus)));

const refundEvent = (id: string, captureId: string, type = 'PAYMENT.CAPTURE.REFUNDED') => ({
  id,
  event_version: '1.0',
  create_time: '2026-11-22T18:00:00.000Z',
  resource_type: 'refund',
  resource_version: '2.0',
  event_type: type,
  summary: 'A capture payment was refunded',
  resource: {
    id: `REF-${id}`,
    status: 'COMPLETED',
    amount: { currency_code: 'USD', value: '10.00' },
    links: [
      { href: `https://api.paypal.com/v2/payments/refunds/REF-${id}`, rel: 'self', method: 'GET' },
      { href: `https://api.paypal.com/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
    ],
  },
});

describe('PayPal webhooks in the demo sandbox', () => {
  let t: TestApp;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;

  beforeAll(async () => {
    t = await createTestApp();
    ada = await registerVerifiedCustomer(t, 'ada.paypal-webhook@example.com');
    bob = await registerVerifiedCustomer(t, 'bob.paypal-webhook@example.com');
  });
  afterAll(async () => t.close());

  const sandbox = () => {
    const gateway = t.app.providers.paypal;
    if (!isDemoPayPalSandbox(gateway)) throw new Error('not the sandbox');
    return gateway;
  };

  async function paidOrder(who: RegisteredCustomer, usd: number) {
    const orderId = await placeBuyOrder(t, who, usd);
    const { id } = (await createPayPal(t, who, orderId)).json();
    await t.request({ method: 'POST', url: `/api/dev/paypal/orders/${id}/approve`, headers: who.auth });
    const captured = await capture(t, who, id, orderId);
    expect(captured.statusCode).toBe(200);
    return { orderId, captureId: captured.json().order.payment.captureId as string };
  }

  it('shows the capture id in a PayPal-paid order', async () => {
    const { orderId, captureId } = await paidOrder(ada, 80);
    expect(captureId).toMatch(/^DEMOCAP-/);
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/order/list?userId=${ada.userId}`,
      headers: ada.auth,
    });
    expect(listed.json().result.orders.find((o: { _id: string }) => o._id === orderId).payment).toMatchObject(
      {
        method: 'paypal',
        status: 'COMPLETED',
        captureId,
      },
    );
  });

  it('a refund in the sandbox flags the order, keeps its status, restricts the customer; the back office sees it', async () => {
    const { orderId, captureId } = await paidOrder(bob, 75);
    // The bitcoin was already sent.
    await t.database.db.update(orders).set({ status: 'completed' }).where(eq(orders.id, orderId));
    expect((await saveBuy(t, bob)).statusCode).toBe(200);

    const refunded = await t.request({
      method: 'POST',
      url: `/api/dev/paypal/captures/${captureId}/refund`,
    });
    expect(refunded.statusCode).toBe(200);
    await eventually(async () => expect((await orderRow(t, orderId)).flag).toBe('payment_reversed'));
    expect(await orderRow(t, orderId)).toMatchObject({ status: 'completed' });
    expect((await orderRow(t, orderId)).flagNote).toContain(captureId);

    const refused = await saveBuy(t, bob);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Your account is under review. Contact support.');
    // Another customer still trades.
    expect((await saveBuy(t, ada)).statusCode).toBe(200);

    const admin = await logIn(t, 'admin@offzero.local');
    const flagged = await t.app.inject({
      method: 'GET',
      url: '/api/admin/orders?flagged=true',
      headers: admin.auth,
    });
    expect(JSON.stringify(flagged.json())).toContain(orderId);

    // Refunding twice is refused; an unknown capture is 404.
    expect(
      (await t.request({ method: 'POST', url: `/api/dev/paypal/captures/${captureId}/refund` })).statusCode,
    ).toBe(409);
    expect(
      (await t.request({ method: 'POST', url: '/api/dev/paypal/captures/DEMOCAP-NOPE/refund' })).statusCode,
    ).toBe(404);
  });

  it('refuses forged and altered events, and applies a replayed one once', async () => {
    const carol = await registerVerifiedCustomer(t, 'carol.paypal-webhook@example.com');
    const { orderId, captureId } = await paidOrder(carol, 65);
    const event = refundEvent('WH-DEMO-REPLAYED-1', captureId);
    const delivery = await sandbox().signedDelivery(event);

    // Forged: a signature the sandbox did not make.
    const forged = { ...delivery.headers, 'paypal-transmission-sig': Buffer.alloc(32, 7).toString('base64') };
    expect((await webhook(t, delivery.rawBody, forged)).statusCode).toBe(401);
    // Altered: another capture in signed bytes.
    const altered = Buffer.from(delivery.rawBody.toString('utf8').replace(captureId, 'DEMOCAP-OTHER'));
    expect((await webhook(t, altered, delivery.headers)).statusCode).toBe(401);
    // No signature at all.
    expect((await webhook(t, delivery.rawBody, {})).statusCode).toBe(401);
    expect((await orderRow(t, orderId)).flag).toBeNull();
    expect(await isRestricted(t, carol.userId)).toBe(false);

    expect((await webhook(t, delivery.rawBody, delivery.headers)).json()).toEqual({ message: 'Received.' });
    // PayPal sends the same event again, in a new transmission: stored once.
    const again = await sandbox().signedDelivery(event);
    expect((await webhook(t, again.rawBody, again.headers)).json()).toEqual({
      message: 'Already processed.',
    });
    await eventually(async () => expect((await orderRow(t, orderId)).flag).toBe('payment_reversed'));
    const stored = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.provider, 'paypal'), eq(webhookDeliveries.deliveryKey, event.id)));
    expect(stored).toHaveLength(1);
    const reversals = await t.database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.reason, 'PayPal payment reversed')));
    expect(reversals).toHaveLength(1);
    expect(await isRestricted(t, carol.userId)).toBe(true);
  });

  it('re-verifies a stored event before applying it: bytes altered in storage change nothing', async () => {
    const dan = await registerVerifiedCustomer(t, 'dan.paypal-webhook@example.com');
    const { orderId, captureId } = await paidOrder(dan, 62);
    const signed = await sandbox().signedDelivery(refundEvent('WH-DEMO-STORED-1', 'DEMOCAP-SOMEONE-ELSE'));
    // Stored as received, then its bytes changed to name this customer's capture.
    const altered = Buffer.from(signed.rawBody.toString('utf8').replace('DEMOCAP-SOMEONE-ELSE', captureId));
    expect(
      await t.app.inbox.receive({
        provider: 'paypal',
        rawBody: altered,
        headers: signed.headers,
        deliveryKey: 'WH-DEMO-STORED-1',
      }),
    ).toBe('stored');
    await eventually(async () => {
      const [row] = await t.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.deliveryKey, 'WH-DEMO-STORED-1'));
      expect(row).toMatchObject({ status: 'pending', lastError: 'the stored webhook no longer verifies' });
    });
    expect((await orderRow(t, orderId)).flag).toBeNull();
    expect(await isRestricted(t, dan.userId)).toBe(false);
  });

  it('keeps its payments and webhook key in the database: another process’s sandbox sees and verifies them', async () => {
    const erin = await registerVerifiedCustomer(t, 'erin.paypal-webhook@example.com');
    const { captureId } = await paidOrder(erin, 58);
    const elsewhere = createDemoPayPalGateway(t.database.db);
    const signed = await sandbox().signedDelivery(refundEvent('WH-DEMO-ELSEWHERE-1', captureId));
    expect(await elsewhere.verifyWebhook(signed.rawBody, signed.headers)).toBe(true);
    const refund = await elsewhere.refund(captureId);
    expect(await sandbox().verifyWebhook(refund.rawBody, refund.headers)).toBe(true);
    await expect(sandbox().refund(captureId)).rejects.toMatchObject({ issue: 'CAPTURE_FULLY_REFUNDED' });
  });

  it('answers 400 to a signed body that is not a PayPal event', async () => {
    const delivery = await sandbox().signedDelivery({ hello: 'world' });
    expect((await webhook(t, delivery.rawBody, delivery.headers)).statusCode).toBe(400);
  });
});

describe('PayPal webhooks and reconciliation against PayPal’s REST API (a local server)', () => {
  const webhookId = PAYPAL_TEST_WEBHOOK_ID;
  const paypalSignature = paypalTestSignature;
  const fromPayPal = (event: object) => paypalTestDelivery(event);
  let paypalApi: PayPalRestApiServer;
  let t: TestApp;
  let ada: RegisteredCustomer;

  beforeAll(async () => {
    paypalApi = await startPayPalRestApiServer();
    t = await createTestApp({}, undefined, { providers: { paypal: paypalApi.gateway } });
    ada = await registerVerifiedCustomer(t, 'ada.paypal-reconcile@example.com');
  });
  afterAll(async () => {
    await t.close();
    await paypalApi.close();
  });

  async function startPayment(who: RegisteredCustomer, usd: number) {
    const orderId = await placeBuyOrder(t, who, usd);
    const { id } = (await createPayPal(t, who, orderId)).json();
    return { orderId, paypalOrderId: id as string };
  }

  it('verifies through verify-webhook-signature with our webhook id and the event byte for byte', async () => {
    const bob = await registerVerifiedCustomer(t, 'bob.paypal-rest-webhook@example.com');
    const { orderId, paypalOrderId } = await startPayment(bob, 45);
    expect((await capture(t, bob, paypalOrderId, orderId)).statusCode).toBe(200);
    const { captureId } = paypalApi.orders.get(paypalOrderId)!;

    // A body PayPal would not re-serialise the same way: odd spacing, escaped characters.
    const event = refundEvent(
      'WH-4SW78779LY2325805-07E03580SX1414828',
      captureId,
      'PAYMENT.CAPTURE.REVERSED',
    );
    const raw = JSON.stringify(event, null, 3).replace('"summary": "A', '"summary":    "\\u0041');
    const sent = fromPayPal(event);
    const signed = { rawBody: raw, headers: { ...sent.headers } };
    signed.headers['paypal-transmission-sig'] = paypalSignature(
      sent.headers['paypal-transmission-id'],
      sent.headers['paypal-transmission-time'],
      webhookId,
      raw,
    );
    // Signed for another webhook (another app's id): refused.
    const otherHook = {
      ...signed.headers,
      'paypal-transmission-sig': paypalSignature(
        sent.headers['paypal-transmission-id'],
        sent.headers['paypal-transmission-time'],
        'ANOTHERWEBHOOK',
        raw,
      ),
    };
    expect((await webhook(t, raw, otherHook)).statusCode).toBe(401);
    // Altered after signing: refused.
    expect((await webhook(t, raw.replace('10.00', '1.00'), signed.headers)).statusCode).toBe(401);
    expect((await orderRow(t, orderId)).flag).toBeNull();

    expect((await webhook(t, raw, signed.headers)).json()).toEqual({ message: 'Received.' });
    expect(paypalApi.verifyCalls.at(-1)).toMatchObject({
      auth_algo: 'SHA256withRSA',
      cert_url: signed.headers['paypal-cert-url'],
      transmission_id: signed.headers['paypal-transmission-id'],
      transmission_sig: signed.headers['paypal-transmission-sig'],
      transmission_time: signed.headers['paypal-transmission-time'],
      webhook_id: webhookId,
      webhook_event: event,
    });
    await eventually(async () => expect((await orderRow(t, orderId)).flag).toBe('payment_reversed'));
    expect((await orderRow(t, orderId)).status).toBe('processing');
    expect(await isRestricted(t, bob.userId)).toBe(true);
  });

  it('answers 503 (PayPal sends it again) when PayPal cannot verify now, and stores nothing', async () => {
    const sent = fromPayPal(refundEvent('WH-OUTAGE-1', 'CAPTURE-X'));
    const response = await webhook(t, sent.rawBody, {
      ...sent.headers,
      'paypal-transmission-id': 'outage-1',
    });
    expect(response.statusCode).toBe(503);
    const stored = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.deliveryKey, 'WH-OUTAGE-1'));
    expect(stored).toHaveLength(0);
  });

  it('a dispute opened on a capture flags the order and restricts the customer', async () => {
    const dora = await registerVerifiedCustomer(t, 'dora.paypal-dispute@example.com');
    const { orderId, paypalOrderId } = await startPayment(dora, 52);
    expect((await capture(t, dora, paypalOrderId, orderId)).statusCode).toBe(200);
    const { captureId } = paypalApi.orders.get(paypalOrderId)!;
    const sent = fromPayPal({
      id: 'WH-DISPUTE-1',
      event_type: 'CUSTOMER.DISPUTE.CREATED',
      resource_type: 'dispute',
      resource: {
        dispute_id: 'PP-D-27803',
        reason: 'UNAUTHORISED',
        status: 'OPEN',
        disputed_transactions: [{ seller_transaction_id: captureId }],
      },
    });
    expect((await webhook(t, sent.rawBody, sent.headers)).statusCode).toBe(200);
    await eventually(async () => expect((await orderRow(t, orderId)).flag).toBe('payment_reversed'));
    expect((await orderRow(t, orderId)).flagNote).toContain('PP-D-27803');
    expect(await isRestricted(t, dora.userId)).toBe(true);
    expect((await saveBuy(t, dora)).statusCode).toBe(403);
  });

  it('cancels an order whose held capture PayPal then denies', async () => {
    const erin = await registerVerifiedCustomer(t, 'erin.paypal-denied@example.com');
    const { orderId, paypalOrderId } = await startPayment(erin, 48);
    paypalApi.nextCapture = 'PENDING';
    try {
      expect((await capture(t, erin, paypalOrderId, orderId)).statusCode).toBe(200);
    } finally {
      paypalApi.nextCapture = 'COMPLETED';
    }
    const { captureId } = paypalApi.orders.get(paypalOrderId)!;
    const sent = fromPayPal({
      id: 'WH-DENIED-1',
      event_type: 'PAYMENT.CAPTURE.DENIED',
      resource_type: 'capture',
      resource: { id: captureId, status: 'DECLINED' },
    });
    expect((await webhook(t, sent.rawBody, sent.headers)).statusCode).toBe(200);
    await eventually(async () => expect((await orderRow(t, orderId)).status).toBe('cancelled'));
    expect(await movesOf(t, orderId, 'cancelled')).toHaveLength(1);
  });

  it('waits on a PENDING capture and credits it once when PayPal completes it', async () => {
    const { orderId, paypalOrderId } = await startPayment(ada, 55);
    paypalApi.nextCapture = 'PENDING';
    let held;
    try {
      held = await capture(t, ada, paypalOrderId, orderId);
    } finally {
      paypalApi.nextCapture = 'COMPLETED';
    }
    expect(held.statusCode).toBe(200);
    expect(held.json().message).toMatch(/PayPal is holding this payment/);
    const { captureId } = paypalApi.orders.get(paypalOrderId)!;
    expect(held.json().order).toMatchObject({
      status: 'pending',
      payment: { method: 'paypal', status: 'PENDING', captureId },
    });
    // Its quote runs out meanwhile: a payment PayPal holds does not expire.
    await t.database.db
      .update(orders)
      .set({ quoteExpiresAt: new Date(Date.now() - 60_000) })
      .where(eq(orders.id, orderId));
    await t.app.orderService.expireOverdue();
    expect((await orderRow(t, orderId)).status).toBe('pending');

    const completed = (id: string) => ({
      id,
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource_type: 'capture',
      resource: {
        id: captureId,
        status: 'COMPLETED',
        amount: { currency_code: 'USD', value: paypalApi.orders.get(paypalOrderId)!.value },
        supplementary_data: { related_ids: { order_id: paypalOrderId } },
      },
    });
    const first = fromPayPal(completed('WH-COMPLETED-1'));
    expect((await webhook(t, first.rawBody, first.headers)).statusCode).toBe(200);
    await eventually(async () => expect((await orderRow(t, orderId)).status).toBe('processing'));
    // Another event for the same capture changes nothing.
    const second = fromPayPal(completed('WH-COMPLETED-2'));
    expect((await webhook(t, second.rawBody, second.headers)).statusCode).toBe(200);
    await eventually(async () => {
      const [row] = await t.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.deliveryKey, 'WH-COMPLETED-2'));
      expect(row?.status).toBe('processed');
    });
    expect(await movesOf(t, orderId, 'processing')).toHaveLength(1);
    expect(await orderRow(t, orderId)).toMatchObject({
      paypalCaptureId: captureId,
      paymentConfirmedBy: 'paypal',
      bankTxn: captureId,
    });
  });

  it('reconciliation credits, once, a capture whose answer was lost; leaves an abandoned one', async () => {
    const lost = await startPayment(ada, 35);
    paypalApi.nextCapture = 'LOST';
    try {
      expect((await capture(t, ada, lost.paypalOrderId, lost.orderId)).statusCode).toBe(503);
    } finally {
      paypalApi.nextCapture = 'COMPLETED';
    }
    expect((await orderRow(t, lost.orderId)).status).toBe('pending');
    const abandoned = await startPayment(ada, 36);
    const recent = await startPayment(ada, 37);
    paypalApi.orders.get(recent.paypalOrderId)!.captureStatus = 'COMPLETED';
    // Created 31 minutes ago (the recent one is left to the customer's page).
    for (const orderId of [lost.orderId, abandoned.orderId]) {
      await t.database.db
        .update(orders)
        .set({ createdAt: new Date(Date.now() - 31 * 60_000) })
        .where(eq(orders.id, orderId));
    }

    // The periodic job, run by the job engine.
    await t.app.jobQueue.send('reconcile-paypal');
    await eventually(async () => expect((await orderRow(t, lost.orderId)).status).toBe('processing'));
    await t.app.jobQueue.send('reconcile-paypal');
    await t.app.jobQueue.send('reconcile-paypal');
    expect(await orderRow(t, lost.orderId)).toMatchObject({
      paypalCaptureId: paypalApi.orders.get(lost.paypalOrderId)!.captureId,
      paymentConfirmedBy: 'paypal',
    });
    await eventually(async () => {
      const runs = await t.database.db
        .select()
        .from(orderEvents)
        .where(eq(orderEvents.orderId, lost.orderId));
      expect(runs.filter((event) => event.toStatus === 'processing')).toHaveLength(1);
    });
    expect((await orderRow(t, abandoned.orderId)).status).toBe('pending');
    expect((await orderRow(t, recent.orderId)).status).toBe('pending');
  });
});
