import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys, orderEvents, orders, quotes } from '../db/schema';
import { applyRetention } from '../jobs/retention.repository';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { buyOrderPayload, placeBuyOrder } from '../test/buy-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let admin: RegisteredCustomer;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp();
  admin = await logIn(t, 'admin@offzero.local');
  ada = await registerVerifiedCustomer(t, 'ada.idem@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.idem@example.com');
});
afterAll(async () => t.close());

const save = (who: RegisteredCustomer, payload: object, key?: string) =>
  t.request({
    method: 'POST',
    url: '/api/order/save',
    headers: { ...who.auth, ...(key === undefined ? {} : { 'idempotency-key': key }) },
    payload,
  });

const ordersOf = (who: RegisteredCustomer) =>
  t.database.db.select().from(orders).where(eq(orders.userId, who.userId));

/** A buy moved to processing (paid by Zelle, to be checked by staff). */
async function zelleBuy(who: RegisteredCustomer, valueUsd: number): Promise<string> {
  const orderId = await placeBuyOrder(t, who, valueUsd);
  const paid = await t.request({
    method: 'POST',
    url: '/api/order/update',
    headers: who.auth,
    payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
  });
  expect(paid.statusCode).toBe(200);
  return orderId;
}

const markPaid = (orderId: string, key: string, note?: string) =>
  t.request({
    method: 'POST',
    url: `/api/admin/orders/${orderId}/mark-paid`,
    headers: { ...admin.auth, 'idempotency-key': key },
    payload: note === undefined ? {} : { note },
  });

describe('Idempotency-Key', () => {
  it('answers a repeated save with the first answer and makes one order', async () => {
    const payload = await buyOrderPayload(t, ada, 120);
    const before = (await ordersOf(ada)).length;
    const first = await save(ada, payload, 'buy-click-1');
    expect(first.statusCode).toBe(200);
    const again = await save(ada, payload, 'buy-click-1');
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await ordersOf(ada)).length).toBe(before + 1);
  });

  it('replays an error answer too, with its status', async () => {
    const payload = await buyOrderPayload(t, ada, 120, { walletAddress: 'not-an-address' });
    const first = await save(ada, payload, 'bad-address-1');
    expect(first.statusCode).toBe(400);
    const again = await save(ada, payload, 'bad-address-1');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(first.json());
  });

  it('refuses the same key with a different request (422) and changes nothing', async () => {
    const first = await save(ada, await buyOrderPayload(t, ada, 130), 'reused-key');
    expect(first.statusCode).toBe(200);
    const count = (await ordersOf(ada)).length;
    const other = await save(ada, await buyOrderPayload(t, ada, 140), 'reused-key');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      code: 'IDEMPOTENCY_KEY_REUSED',
      message: 'This Idempotency-Key was used with a different request. Use a new key for a new action.',
    });
    expect((await ordersOf(ada)).length).toBe(count);
  });

  it('keeps keys per customer: the same key from another customer makes their own order', async () => {
    const adaAnswer = await save(ada, await buyOrderPayload(t, ada, 150), 'shared-key');
    const bobAnswer = await save(bob, await buyOrderPayload(t, bob, 150), 'shared-key');
    expect(adaAnswer.statusCode).toBe(200);
    expect(bobAnswer.statusCode).toBe(200);
    expect(bobAnswer.headers['idempotent-replayed']).toBeUndefined();
    expect(bobAnswer.json().order._id).not.toBe(adaAnswer.json().order._id);
    expect(bobAnswer.json().order.userId).toBe(bob.userId);
  });

  it.each([
    ['empty', ''],
    ['too long (256 characters)', 'k'.repeat(256)],
    ['with a space', 'my key'],
    ['with a tab', 'my\tkey'],
    ['non-ASCII', 'clé-1'],
  ])('refuses a key that is %s with 400 and a clear message, before anything is saved', async (_, key) => {
    const count = (await ordersOf(ada)).length;
    const response = await save(ada, await buyOrderPayload(t, ada, 160), key);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: expect.stringContaining('Idempotency-Key header must be 1 to 255 visible ASCII characters'),
    });
    expect((await ordersOf(ada)).length).toBe(count);
  });

  it('accepts a key of exactly 255 visible characters', async () => {
    const key = '!~'.repeat(127) + 'x';
    const first = await save(ada, await buyOrderPayload(t, ada, 170), key);
    expect(first.statusCode).toBe(200);
    expect((await save(ada, await buyOrderPayload(t, ada, 170), key)).body).toBe(first.body);
  });

  it('runs 20 identical back-office calls at once once: every caller gets the first answer', async () => {
    const orderId = await zelleBuy(ada, 90);
    const answers = await Promise.all(Array.from({ length: 20 }, () => markPaid(orderId, 'mark-paid-once')));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row?.paymentConfirmedAt).not.toBeNull();
    // Without the key the second call is refused: the replays above were not second effects.
    const fresh = await markPaid(orderId, 'mark-paid-other');
    expect(fresh.statusCode).toBe(409);
  });

  it('scopes a key to its path: the same key on another order is another action', async () => {
    const first = await zelleBuy(ada, 91);
    const second = await zelleBuy(ada, 92);
    expect((await markPaid(first, 'same-key-two-orders')).statusCode).toBe(200);
    const other = await markPaid(second, 'same-key-two-orders');
    expect(other.statusCode).toBe(200);
    expect(other.json().order._id).toBe(second);
  });

  it('treats every spelling of a path as that path: /api/%71uotes with the same key replays the quote', async () => {
    const quote = (url: string) =>
      t.request({
        method: 'POST',
        url,
        headers: { ...ada.auth, 'idempotency-key': 'quote-spelled-twice' },
        payload: { type: 'buy', value: 75 },
      });
    const quotesOfAda = async () =>
      (await t.database.db.select().from(quotes).where(eq(quotes.userId, ada.userId))).length;
    const first = await quote('/api/quotes');
    expect(first.statusCode).toBe(200);
    const before = await quotesOfAda();
    const respelled = await quote('/api/%71uotes');
    expect(respelled.statusCode).toBe(200);
    expect(respelled.headers['idempotent-replayed']).toBe('true');
    expect(respelled.body).toBe(first.body);
    expect(await quotesOfAda()).toBe(before);
  });

  it('frees a key after 24 hours, and the retention job deletes it', async () => {
    const payload = await buyOrderPayload(t, ada, 180);
    const first = await save(ada, payload, 'old-key');
    await t.database.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(and(eq(idempotencyKeys.userId, ada.userId), eq(idempotencyKeys.key, 'old-key')));
    // The double-submission window has long passed for the first order too.
    await t.database.db
      .update(orders)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(orders.id, first.json().order._id));
    const later = await save(ada, payload, 'old-key');
    expect(later.statusCode).toBe(200);
    expect(later.json().order._id).not.toBe(first.json().order._id);

    await t.database.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(eq(idempotencyKeys.userId, bob.userId));
    const result = await applyRetention(t.database.db);
    expect(result.idempotencyKeys).toBeGreaterThanOrEqual(1);
    const bobKeys = await t.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.userId, bob.userId));
    expect(bobKeys).toEqual([]);
  });

  it('works without a key as before', async () => {
    const response = await save(ada, await buyOrderPayload(t, ada, 190));
    expect(response.statusCode).toBe(200);
    const events = await t.database.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, response.json().order._id));
    expect(events).toHaveLength(1);
  });

  it('documents the header on the money routes in the OpenAPI document', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    for (const [path, method] of [
      ['/api/order/save', 'post'],
      ['/api/order/update', 'post'],
      ['/api/payments/paypal/orders', 'post'],
      ['/api/payments/paypal/orders/{paypalOrderId}/capture', 'post'],
      // Every back-office order action (mark-paid, payouts, cancel, refund-btc, resolve-flag…).
      ...Object.keys(spec.paths)
        .filter((path) => /^\/api\/admin\/orders\/\{id\}\/[a-z-]+$/.test(path) && spec.paths[path].post)
        .map((path) => [path, 'post'] as const),
    ] as const) {
      const operation = spec.paths[path]?.[method];
      expect(operation, path).toBeDefined();
      const header = operation.parameters.find(
        (p: { in: string; name: string }) => p.in === 'header' && p.name === 'idempotency-key',
      );
      expect(header, path).toMatchObject({ required: false });
      expect(operation.responses['422'], path).toBeDefined();
    }
  });
});
