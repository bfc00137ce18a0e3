import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderTimelineResponse } from '@offzero/shared/api/orders';
import { orders } from '../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { placeBuyOrder, placeConfirmedBuyOrder } from '../test/buy-helpers';
import { saveBank, saveZelle, sellOrder, fileW9 } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

/** The tests run every watcher pass themselves; two confirmations before the dollars go out. */
const ENV = { CHAIN_POLL_SECONDS: '600', DEPOSIT_CONFIRMATIONS: '2' };
const PAYOUT_TXID = 'c'.repeat(64);
const STAFF_NOTE = 'called the bank, ops ticket 4471';

describe('GET /api/order/:id/timeline (docs/design.md)', () => {
  let t: TestApp;
  let admin: RegisteredCustomer;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;

  const ok = async (response: Awaited<ReturnType<TestApp['request']>>) => {
    if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
    return response;
  };
  const asAdmin = (url: string, payload: object) =>
    t.request({ method: 'POST', url, headers: admin.auth, payload });
  const timelineOf = (who: RegisteredCustomer, orderId: string) =>
    t.request({ method: 'GET', url: `/api/order/${orderId}/timeline`, headers: who.auth });
  async function timeline(who: RegisteredCustomer, orderId: string): Promise<OrderTimelineResponse> {
    return (await ok(await timelineOf(who, orderId))).json<OrderTimelineResponse>();
  }
  async function sell(who: RegisteredCustomer, amountBtc: number) {
    const { payload } = await sellOrder(t, who, amountBtc, 'zelle');
    const response = await ok(
      await t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload }),
    );
    const order = response.json<{ order: { _id: string; walletAddress: { address: string } } }>().order;
    return { id: order._id, address: order.walletAddress.address };
  }
  async function send(address: string, amount: number): Promise<string> {
    const response = await ok(
      await t.request({ method: 'POST', url: '/api/dev/chain/send', payload: { address, amount } }),
    );
    return response.json<{ txid: string }>().txid;
  }
  const mine = async (blocks: number) =>
    ok(await t.request({ method: 'POST', url: '/api/dev/chain/mine', payload: { blocks } }));
  const poll = () => t.app.depositWatcher.pollOnce();

  beforeAll(async () => {
    t = await createTestApp(ENV);
    admin = await logIn(t, 'admin@offzero.local');
    ada = await registerVerifiedCustomer(t, 'ada.timeline@example.com');
    bob = await registerVerifiedCustomer(t, 'bob.timeline@example.com');
    for (const seller of [ada, bob]) {
      await saveBank(t, seller);
      await saveZelle(t, seller, seller.email);
      await fileW9(t, seller);
    }
  });
  afterAll(async () => t.close());

  it('tells a Zelle buy from placing to the bitcoin sent, with the payout transaction', async () => {
    const orderId = await placeConfirmedBuyOrder(t, ada, 500);
    await ok(
      await t.request({
        method: 'POST',
        url: '/api/order/update',
        headers: ada.auth,
        payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
      }),
    );
    await ok(await asAdmin(`/api/admin/orders/${orderId}/mark-paid`, { note: STAFF_NOTE }));
    await ok(
      await asAdmin(`/api/admin/orders/${orderId}/payout-btc`, { txid: PAYOUT_TXID, note: STAFF_NOTE }),
    );

    const answer = await timeline(ada, orderId);
    expect(answer.timeline.map((entry) => [entry.kind, entry.status, entry.title])).toEqual([
      ['status', 'pending', 'Order placed'],
      ['status', 'processing', 'Payment submitted'],
      ['status', 'completed', 'Bitcoin sent'],
    ]);
    expect(answer.timeline[1]?.detail).toBe(
      'You paid by Zelle. We send your bitcoin once the money arrives.',
    );
    expect(answer.timeline[2]?.reference).toEqual({ kind: 'tx', value: PAYOUT_TXID, vout: 0 });
    expect(answer.confirmations).toBeNull();
    // Times are real and in order.
    const times = answer.timeline.map((entry) => Date.parse(entry.at));
    expect(times.every((time) => Number.isFinite(time))).toBe(true);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    // Nothing the back office wrote for itself reaches the customer.
    expect(JSON.stringify(answer)).not.toContain('ops ticket');
    expect(JSON.stringify(answer)).not.toContain('admin');
  });

  it('shows a late deposit re-priced (before and after, and why), its review, and confirmations N of M', async () => {
    const placed = await sell(bob, 0.01);
    // The order was locked at an older price, $500 above today's, and its window has closed.
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, placed.id));
    const lockedCents = row!.priceCents + 50_000n;
    await t.database.db
      .update(orders)
      .set({ priceCents: lockedCents, quoteExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(orders.id, placed.id));
    await t.app.orderService.expireOverdue();
    const txid = await send(placed.address, 0.01);
    await poll();

    let answer = await timeline(bob, placed.id);
    expect(answer.timeline.map((entry) => [entry.kind, entry.status, entry.title])).toEqual([
      ['status', 'pending', 'Order placed'],
      ['status', 'expired', 'Expired'],
      ['status', 'processing', 'Bitcoin arrived late'],
      ['repriced', 'processing', 'Re-priced'],
      ['review_started', 'processing', 'Under review'],
    ]);
    const [, , arrived, repriced, review] = answer.timeline;
    expect(arrived?.reference).toEqual({ kind: 'tx', value: txid });
    expect(repriced?.detail).toBe(
      'Your bitcoin arrived after the 20-minute window, so it was priced at the price of that moment.',
    );
    expect(repriced?.repricing?.before.price).toBe(Number(lockedCents) / 100);
    expect(repriced?.repricing?.after.price).not.toBe(Number(lockedCents) / 100);
    expect(repriced?.repricing?.after.amount).toBe(0.01);
    expect(review?.detail).toBe(
      'Your bitcoin arrived after the deposit window closed. Our team checks it before paying out.',
    );
    expect(answer.confirmations).toEqual({ count: 0, required: 2 });

    await mine(1);
    await poll();
    expect((await timeline(bob, placed.id)).confirmations).toEqual({ count: 1, required: 2 });
    await mine(1);
    await poll();
    expect((await timeline(bob, placed.id)).confirmations).toEqual({ count: 2, required: 2 });

    await ok(await asAdmin(`/api/admin/orders/${placed.id}/resolve-flag`, { note: STAFF_NOTE }));
    await ok(await asAdmin(`/api/admin/orders/${placed.id}/payout-usd`, { reference: 'ZELLE-OUT-77' }));
    answer = await timeline(bob, placed.id);
    expect(answer.timeline.slice(5).map((entry) => [entry.kind, entry.title, entry.detail])).toEqual([
      ['review_ended', 'Review finished', 'Our team checked the order and released it.'],
      ['status', 'Dollars sent', 'Paid to you by Zelle.'],
    ]);
    expect(answer.timeline.at(-1)?.reference).toEqual({ kind: 'bank', value: 'ZELLE-OUT-77' });
    expect(JSON.stringify(answer)).not.toContain('ops ticket');
    expect(JSON.stringify(answer)).not.toContain('late_deposit');
  });

  it('says why an under-payment re-priced the order', async () => {
    const placed = await sell(ada, 0.02);
    await send(placed.address, 0.015);
    await poll();
    const answer = await timeline(ada, placed.id);
    const repriced = answer.timeline.find((entry) => entry.kind === 'repriced');
    expect(repriced?.detail).toBe(
      'You sent less bitcoin than the order asked for, so it was priced on what arrived.',
    );
    expect(repriced?.repricing?.before.amount).toBe(0.02);
    expect(repriced?.repricing?.after.amount).toBe(0.015);
    expect(repriced!.repricing!.after.value).toBeLessThan(repriced!.repricing!.before.value);
  });

  it("shows the customer's own cancellation with the reason they gave", async () => {
    const orderId = await placeBuyOrder(t, ada, 300);
    await ok(
      await t.request({
        method: 'POST',
        url: '/api/order/cancel',
        headers: ada.auth,
        payload: { _id: orderId, reason: 'Typed the wrong amount' },
      }),
    );
    const answer = await timeline(ada, orderId);
    expect(answer.timeline.at(-1)).toMatchObject({
      kind: 'status',
      status: 'cancelled',
      title: 'You cancelled the order',
      detail: 'Typed the wrong amount',
    });
  });

  it("answers 404 for another customer's order, a made-up id or a malformed one, and 401 without a session", async () => {
    const orderId = await placeBuyOrder(t, ada, 250);
    const other = await timelineOf(bob, orderId);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ message: 'Order not found.', code: 'NOT_FOUND' });
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id', `${orderId}x`]) {
      expect((await timelineOf(ada, id)).statusCode, id).toBe(404);
    }
    const visitor = await t.request({ method: 'GET', url: `/api/order/${orderId}/timeline` });
    expect(visitor.statusCode).toBe(401);
  });
});
