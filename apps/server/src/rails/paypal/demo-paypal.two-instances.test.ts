import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoPaypalOrders, orderEvents, orders, webhookDeliveries } from '../../db/schema';
import { isDemoPayPalSandbox } from '../../providers/provider-registry';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { placeBuyOrder } from '../../test/buy-helpers';
import { createTestApp, createTestAppOnSameDatabase, type TestApp } from '../../test/test-app';
import { PayPalError } from './paypal-gateway';

/**
 * The demo PayPal sandbox behind two server processes on one PostgreSQL database, as behind a load
 * balancer: a payment created through one is approved, captured and refunded through the other, and a
 * webhook one signs verifies in the other (the worker re-verifies every stored delivery).
 */
const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';

const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 50 });

describe.runIf(IS_POSTGRES)('the demo PayPal sandbox on two processes', () => {
  let a: TestApp;
  let b: TestApp;
  let ada: RegisteredCustomer;

  const sandbox = (t: TestApp) => {
    const gateway = t.app.providers.paypal;
    if (!isDemoPayPalSandbox(gateway)) throw new Error('not the sandbox');
    return gateway;
  };
  const createPayPal = (t: TestApp, orderId: string) =>
    t.request({
      method: 'POST',
      url: '/api/payments/paypal/orders',
      headers: ada.auth,
      payload: { orderId },
    });
  const approve = (t: TestApp, paypalOrderId: string) =>
    t.request({ method: 'POST', url: `/api/dev/paypal/orders/${paypalOrderId}/approve`, headers: ada.auth });
  const capture = (t: TestApp, paypalOrderId: string, orderId: string) =>
    t.request({
      method: 'POST',
      url: `/api/payments/paypal/orders/${paypalOrderId}/capture`,
      headers: ada.auth,
      payload: { orderId },
    });
  const orderRow = async (orderId: string) =>
    (await a.database.db.select().from(orders).where(eq(orders.id, orderId)))[0]!;

  beforeAll(async () => {
    // One session secret, as two processes of one deployment share; no background chain polling.
    const overrides = { CHAIN_POLL_SECONDS: '600', JWT_SECRET: randomBytes(32).toString('hex') };
    a = await createTestApp(overrides);
    b = await createTestAppOnSameDatabase(a, overrides);
    ada = await registerVerifiedCustomer(a, 'ada.paypal.two.processes@example.com');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('signs with one key on both processes, even when both make it at the same moment', async () => {
    const [fromA, fromB] = await Promise.all([
      sandbox(a).signedDelivery({ id: 'WH-DEMO-KEY-A' }),
      sandbox(b).signedDelivery({ id: 'WH-DEMO-KEY-B' }),
    ]);
    expect(await sandbox(b).verifyWebhook(fromA.rawBody, fromA.headers)).toBe(true);
    expect(await sandbox(a).verifyWebhook(fromB.rawBody, fromB.headers)).toBe(true);
    // Still a signature check: another body under the same headers fails on either process.
    expect(await sandbox(a).verifyWebhook(fromA.rawBody, fromB.headers)).toBe(false);
  });

  it('a payment created on one process is approved and captured on the other, once', async () => {
    const orderId = await placeBuyOrder(a, ada, 85);
    const created = await createPayPal(a, orderId);
    expect(created.statusCode, created.body).toBe(200);
    const { id } = created.json<{ id: string }>();
    const approved = await approve(b, id);
    expect(approved.statusCode, approved.body).toBe(200);
    // The approval made on b is what a reads back.
    expect((await sandbox(a).getOrder(id)).status).toBe('APPROVED');

    // The customer's capture, sent twice on each process at once: one takes the money.
    const answers = await Promise.all([
      capture(a, id, orderId),
      capture(b, id, orderId),
      capture(a, id, orderId),
      capture(b, id, orderId),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const row = await orderRow(orderId);
    expect(row).toMatchObject({ status: 'processing', paymentMethod: 'paypal' });
    const [held] = await a.database.db.select().from(demoPaypalOrders).where(eq(demoPaypalOrders.id, id));
    expect(held).toMatchObject({ status: 'COMPLETED', referenceId: orderId, valueCents: 8500n });
    expect(row.paypalCaptureId).toBe(held!.captureId);
    const moves = await a.database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, 'processing')));
    expect(moves).toHaveLength(1);
  });

  it('captures an approved payment once when both processes capture it at the same moment', async () => {
    const orderId = await placeBuyOrder(a, ada, 70);
    const { id } = (await createPayPal(b, orderId)).json<{ id: string }>();
    await sandbox(a).approve(id);
    const results = await Promise.allSettled([
      sandbox(a).capture(id, 'first-request'),
      sandbox(b).capture(id, 'second-request'),
    ]);
    const captured = results.filter((result) => result.status === 'fulfilled');
    expect(captured).toHaveLength(1);
    const refused = results.find((result) => result.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(PayPalError);
    expect((refused?.reason as PayPalError).issue).toBe('ORDER_ALREADY_CAPTURED');
    // A retry of the winning request, on either process, answers the same capture.
    const winner = captured[0]!.value;
    const requestId = results[0].status === 'fulfilled' ? 'first-request' : 'second-request';
    expect((await sandbox(b).capture(id, requestId)).captureId).toBe(winner.captureId);
    expect((await sandbox(a).capture(id, requestId)).captureId).toBe(winner.captureId);
  });

  it('a refund made on one process is verified and applied from the stored webhook, once; a second refund is refused on the other', async () => {
    const orderId = await placeBuyOrder(a, ada, 66);
    const { id } = (await createPayPal(a, orderId)).json<{ id: string }>();
    await approve(b, id);
    const captured = await capture(a, id, orderId);
    expect(captured.statusCode, captured.body).toBe(200);
    const captureId = (await orderRow(orderId)).paypalCaptureId!;

    const refunded = await b.request({ method: 'POST', url: `/api/dev/paypal/captures/${captureId}/refund` });
    expect(refunded.statusCode, refunded.body).toBe(200);
    await eventually(async () => expect((await orderRow(orderId)).flag).toBe('payment_reversed'));
    const [delivery] = await a.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.provider, 'paypal'));
    expect(delivery).toMatchObject({ status: 'processed', lastError: null });
    // The stored delivery verifies on the process that did not sign it.
    expect(await sandbox(a).verifyWebhook(delivery!.rawBody!, delivery!.headers)).toBe(true);

    const again = await a.request({ method: 'POST', url: `/api/dev/paypal/captures/${captureId}/refund` });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This PayPal capture was already refunded.');
    const reversals = await a.database.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.reason, 'PayPal payment reversed')));
    expect(reversals).toHaveLength(1);
  });
});
