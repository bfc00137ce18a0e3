import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orders, outboxEvents } from '../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { placeBuyOrder } from '../test/buy-helpers';
import { saveBank, saveZelle, sellOrder, TEST_BANK, fileW9 } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;
let admin: RegisteredCustomer;
let keys = 0;

beforeAll(async () => {
  // The deposit watcher must not move sells on its own here.
  t = await createTestApp({ CHAIN_POLL_SECONDS: '600' });
  ada = await registerVerifiedCustomer(t, 'ada.cancel@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.cancel@example.com');
  admin = await logIn(t, 'admin@offzero.local');
  await saveBank(t, ada, TEST_BANK);
  await fileW9(t, ada);
  await saveZelle(t, ada, 'ada.cancel.zelle@example.com');
});
afterAll(async () => t.close());

const cancel = (who: RegisteredCustomer, payload: object) =>
  t.request({
    method: 'POST',
    url: '/api/order/cancel',
    headers: { ...who.auth, 'idempotency-key': `cancel-test-${++keys}` },
    payload,
  });

async function orderRow(id: string) {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  if (!row) throw new Error(`order ${id} not found`);
  return row;
}

async function listed(who: RegisteredCustomer, id: string) {
  const response = await t.request({
    method: 'GET',
    url: `/api/order/list?userId=${who.userId}`,
    headers: who.auth,
  });
  return response
    .json<{ result: { orders: Array<{ _id: string; status: string; cancelReason?: string }> } }>()
    .result.orders.find((order) => order._id === id);
}

async function placeSell(who: RegisteredCustomer): Promise<string> {
  const { payload } = await sellOrder(t, who, 0.01, 'zelle');
  const response = await t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ order: { _id: string } }>().order._id;
}

describe('POST /api/order/cancel', () => {
  it('cancels the customer’s own pending buy with their reason, in the audit trail and their notices', async () => {
    const orderId = await placeBuyOrder(t, ada, 50);
    const response = await cancel(ada, { _id: orderId, reason: '  Changed my mind about the amount.  ' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().order).toMatchObject({
      _id: orderId,
      status: 'cancelled',
      cancelReason: 'Changed my mind about the amount.',
    });
    expect(await orderRow(orderId)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'Changed my mind about the amount.',
    });
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
    const cancelled = events.find((event) => event.toStatus === 'cancelled');
    expect(cancelled).toMatchObject({
      fromStatus: 'pending',
      actor: `user:${ada.userId}`,
      reason: 'Changed my mind about the amount.',
    });
    const notices = await t.database.db
      .select()
      .from(outboxEvents)
      .where(
        and(eq(outboxEvents.userId, ada.userId), eq(outboxEvents.eventKey, `order-event:${cancelled?.id}`)),
      );
    expect(notices.map((notice) => notice.channel)).toEqual(expect.arrayContaining(['realtime', 'email']));
    expect(await listed(ada, orderId)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'Changed my mind about the amount.',
    });
  });

  it('cancels a pending sell and keeps its deposit address allocated to it', async () => {
    const orderId = await placeSell(ada);
    const before = await orderRow(orderId);
    expect(before.walletAddress).toBeTruthy();
    const response = await cancel(ada, { _id: orderId, reason: 'I will sell later.' });
    expect(response.statusCode, response.body).toBe(200);
    const after = await orderRow(orderId);
    expect(after).toMatchObject({ status: 'cancelled', cancelReason: 'I will sell later.' });
    expect(after.walletAddress).toBe(before.walletAddress);
    expect(after.depositIndex).toBe(before.depositIndex);
    // The next sell gets a fresh address, never the cancelled order's.
    const next = await orderRow(await placeSell(ada));
    expect(next.walletAddress).not.toBe(before.walletAddress);
  });

  it('answers another customer’s order and an unknown id exactly alike (404), and changes nothing', async () => {
    const orderId = await placeBuyOrder(t, ada, 40);
    const other = await cancel(bob, { _id: orderId, reason: 'Not mine to cancel.' });
    const unknown = await cancel(bob, { _id: '00000000-0000-4000-8000-000000000000', reason: 'Not mine.' });
    const notAnId = await cancel(bob, { _id: 'nope', reason: 'Not mine.' });
    for (const response of [other, unknown, notAnId]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Order not found.' });
    }
    expect((await orderRow(orderId)).status).toBe('pending');
  });

  it('refuses a missing, short or over-long reason (400) and leaves the order pending', async () => {
    const orderId = await placeBuyOrder(t, ada, 30);
    for (const payload of [
      { _id: orderId },
      { _id: orderId, reason: ' no ' },
      { _id: orderId, reason: 'x'.repeat(501) },
    ]) {
      const response = await cancel(ada, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message.length).toBeGreaterThan(10);
    }
    expect((await orderRow(orderId)).status).toBe('pending');
  });

  it('refuses an order already being processed (409) with a message saying why', async () => {
    const orderId = await placeBuyOrder(t, ada, 60);
    const paid = await t.request({
      method: 'POST',
      url: '/api/order/update',
      headers: ada.auth,
      payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await orderRow(orderId)).status).toBe('processing');
    const response = await cancel(ada, { _id: orderId, reason: 'Too late to change.' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'CONFLICT' });
    expect(response.json().message).toContain('can no longer be cancelled');
    expect(await orderRow(orderId)).toMatchObject({ status: 'processing', cancelReason: null });
  });

  it('refuses a pending buy whose PayPal payment is captured but held (409)', async () => {
    const orderId = await placeBuyOrder(t, ada, 65);
    // PayPal captured the money and holds it: the order stays pending until the capture completes.
    await t.database.db
      .update(orders)
      .set({ paymentMethod: 'paypal', paypalOrderId: 'PAYPAL-CANCEL-1', paypalCaptureId: 'CAPTURE-CANCEL-1' })
      .where(eq(orders.id, orderId));
    const response = await cancel(ada, { _id: orderId, reason: 'Changed my mind.' });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('already paid');
    expect(await orderRow(orderId)).toMatchObject({ status: 'pending', cancelReason: null });
  });

  it('refuses a second cancel (409) and keeps the first reason', async () => {
    const orderId = await placeBuyOrder(t, ada, 35);
    expect((await cancel(ada, { _id: orderId, reason: 'First reason given.' })).statusCode).toBe(200);
    const again = await cancel(ada, { _id: orderId, reason: 'Second reason given.' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This order is already cancelled.');
    expect((await orderRow(orderId)).cancelReason).toBe('First reason given.');
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
    expect(events.filter((event) => event.toStatus === 'cancelled')).toHaveLength(1);
  });

  it('replays the first answer for a repeated idempotency key instead of answering 409', async () => {
    const orderId = await placeBuyOrder(t, ada, 45);
    const request = () =>
      t.request({
        method: 'POST',
        url: '/api/order/cancel',
        headers: { ...ada.auth, 'idempotency-key': `cancel-replay-${orderId}` },
        payload: { _id: orderId, reason: 'Double click.' },
      });
    const first = await request();
    const second = await request();
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
  });

  it('shows the customer the reason staff gave when staff cancelled the order', async () => {
    const orderId = await placeBuyOrder(t, ada, 55);
    expect((await listed(ada, orderId))?.cancelReason).toBeUndefined();
    const staff = await t.request({
      method: 'POST',
      url: `/api/admin/orders/${orderId}/cancel`,
      headers: admin.auth,
      payload: { reason: 'The wallet address belongs to a sanctioned service.' },
    });
    expect(staff.statusCode, staff.body).toBe(200);
    expect(await listed(ada, orderId)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'The wallet address belongs to a sanctioned service.',
    });
  });
});
