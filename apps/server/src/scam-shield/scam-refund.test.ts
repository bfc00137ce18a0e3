import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminActions, orders, payouts } from '../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { buyOrderPayload } from '../test/buy-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

/**
 * The refund a scam cancel claims (docs/design.md, "Places and the scam shield"): staff send the
 * dollars back the way the customer paid and record the reference in the back office, once.
 */
let t: TestApp;
let admin: RegisteredCustomer;

const SCAM_ANSWER = { ownWallet: true, someoneAskedMe: false };

beforeAll(async () => {
  t = await createTestApp({ CHAIN_POLL_SECONDS: '600' });
  admin = await logIn(t, 'admin@offzero.local');
});
afterAll(async () => t.close());

const post = (who: RegisteredCustomer | null, url: string, payload: object = {}, headers = {}) =>
  t.request({ method: 'POST', url, headers: { ...who?.auth, ...headers }, payload });
const refundUrl = (orderId: string) => `/api/admin/orders/${orderId}/refund-usd`;

/** A new customer's buy paid by Zelle, cooling off, then cancelled by the customer as a scam. */
async function scamCancelledBuy(email: string): Promise<{ customer: RegisteredCustomer; orderId: string }> {
  const customer = await registerVerifiedCustomer(t, email, {
    residenceState: 'CA',
    approvedAt: new Date(Date.now() - 3_600_000).toISOString(),
  });
  const saved = await post(
    customer,
    '/api/order/save',
    await buyOrderPayload(t, customer, 120, { scamCheck: SCAM_ANSWER }),
  );
  expect(saved.statusCode, saved.body).toBe(200);
  const orderId = saved.json<{ order: { _id: string } }>().order._id;
  const paid = await post(customer, '/api/order/update', {
    _id: orderId,
    payment: { method: 'zelle' },
    status: 'processing',
  });
  expect(paid.statusCode, paid.body).toBe(200);
  const cancelled = await post(customer, `/api/order/${orderId}/scam-cancel`);
  expect(cancelled.statusCode, cancelled.body).toBe(200);
  return { customer, orderId };
}

const refundsOf = (orderId: string) =>
  t.database.db.select().from(payouts).where(eq(payouts.orderId, orderId));

const offerOf = async (orderId: string) => {
  const detail = await t.request({ method: 'GET', url: `/api/admin/orders/${orderId}`, headers: admin.auth });
  expect(detail.statusCode, detail.body).toBe(200);
  return detail
    .json<{ actions: { kind: string; allowed: boolean }[] }>()
    .actions.find((action) => action.kind === 'refund-usd');
};

describe('POST /api/admin/orders/:id/refund-usd', () => {
  it('records the refund once, settles its payout, and shows it in the customer’s timeline', async () => {
    const { customer, orderId } = await scamCancelledBuy('rhea.refund@example.com');
    expect(await offerOf(orderId)).toEqual({ kind: 'refund-usd', allowed: true, reason: null });

    const recorded = await post(admin, refundUrl(orderId), { reference: 'ZELLE-RF-0042', note: 'sent back' });
    expect(recorded.statusCode, recorded.body).toBe(200);
    expect(recorded.json()).toMatchObject({ order: { _id: orderId, status: 'cancelled' } });
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({
        purpose: 'refund',
        rail: 'zelle',
        state: 'settled',
        reference: 'ZELLE-RF-0042',
      }),
    ]);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row!.status).toBe('cancelled');
    const audit = await t.database.db.select().from(adminActions).where(eq(adminActions.targetId, orderId));
    expect(audit.map((entry) => entry.action)).toEqual(['order.refund_usd']);

    // Twice records it once: the action is no longer offered, and a second call changes nothing.
    expect(await offerOf(orderId)).toBeUndefined();
    const again = await post(admin, refundUrl(orderId), { reference: 'ZELLE-RF-0043' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'The refund of this order was already sent.' });
    expect(await refundsOf(orderId)).toEqual([expect.objectContaining({ reference: 'ZELLE-RF-0042' })]);

    const timeline = await t.request({
      method: 'GET',
      url: `/api/order/${orderId}/timeline`,
      headers: customer.auth,
    });
    expect(timeline.statusCode).toBe(200);
    expect(timeline.json<{ timeline: unknown[] }>().timeline).toContainEqual(
      expect.objectContaining({
        kind: 'payout_sent',
        title: 'Dollars refunded',
        detail: expect.stringContaining('by Zelle'),
        reference: { kind: 'bank', value: 'ZELLE-RF-0042' },
      }),
    );
  });

  it('records it once when two calls race, and replays the answer of a repeated idempotency key', async () => {
    const { orderId } = await scamCancelledBuy('remy.refund@example.com');
    const [first, second] = await Promise.all([
      post(admin, refundUrl(orderId), { reference: 'ZELLE-RACE-1' }),
      post(admin, refundUrl(orderId), { reference: 'ZELLE-RACE-2' }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 409]);
    expect(await refundsOf(orderId)).toEqual([expect.objectContaining({ state: 'settled' })]);

    const { orderId: other } = await scamCancelledBuy('rosa.refund@example.com');
    const key = { 'idempotency-key': `refund-${other}` };
    const once = await post(admin, refundUrl(other), { reference: 'ZELLE-KEY-1' }, key);
    const replay = await post(admin, refundUrl(other), { reference: 'ZELLE-KEY-1' }, key);
    expect(once.statusCode, once.body).toBe(200);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(once.json());
    expect(await refundsOf(other)).toHaveLength(1);
  });

  it('is for staff only: the customer, another customer and no session are refused, nothing changes', async () => {
    const { customer, orderId } = await scamCancelledBuy('ruth.refund@example.com');
    const stranger = await registerVerifiedCustomer(t, 'stranger.refund@example.com');
    for (const who of [customer, stranger]) {
      const refused = await post(who, refundUrl(orderId), { reference: 'MINE-0001' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect((await post(null, refundUrl(orderId), { reference: 'MINE-0001' })).statusCode).toBe(401);
    expect(await refundsOf(orderId)).toEqual([expect.objectContaining({ state: 'requested' })]);
  });

  it('refuses bad input with a message, and an order with no refund to send', async () => {
    const { orderId } = await scamCancelledBuy('rory.refund@example.com');
    const short = await post(admin, refundUrl(orderId), { reference: 'ab' });
    expect(short.statusCode).toBe(400);
    expect(short.json<{ message: string }>().message).toContain('at least 4 characters');
    const odd = await post(admin, refundUrl(orderId), { reference: '<script>' });
    expect(odd.statusCode).toBe(400);
    const extra = await post(admin, refundUrl(orderId), { reference: 'ZELLE-0001', state: 'settled' });
    expect(extra.statusCode).toBe(400);
    expect((await post(admin, refundUrl('not-an-order'), { reference: 'ZELLE-0001' })).statusCode).toBe(404);
    expect(await refundsOf(orderId)).toEqual([expect.objectContaining({ state: 'requested' })]);

    // A buy cancelled before any money came in has nothing to send back.
    const unpaid = await registerVerifiedCustomer(t, 'una.refund@example.com', {
      residenceState: 'CA',
      approvedAt: new Date(Date.now() - 3_600_000).toISOString(),
    });
    const saved = await post(
      unpaid,
      '/api/order/save',
      await buyOrderPayload(t, unpaid, 60, { scamCheck: SCAM_ANSWER }),
    );
    const unpaidId = saved.json<{ order: { _id: string } }>().order._id;
    expect((await post(unpaid, `/api/order/${unpaidId}/scam-cancel`)).statusCode).toBe(200);
    const nothing = await post(admin, refundUrl(unpaidId), { reference: 'ZELLE-0002' });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json()).toMatchObject({ message: 'This order has no dollar refund to send.' });
  });
});
