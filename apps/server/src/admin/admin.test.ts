import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { orders, outboxMessages, referralRewards, users } from '../db/schema';
import {
  logIn,
  registerCustomer,
  registerVerifiedCustomer,
  type RegisteredCustomer,
  ESTABLISHED_APPROVAL_MS,
} from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { buyOrderPayload, placeConfirmedBuyOrder } from '../test/buy-helpers';

const TXID = 'a'.repeat(64);
let t: TestApp;
let admin: RegisteredCustomer;
let referrer: RegisteredCustomer;
let ada: RegisteredCustomer;

async function zelleBuy(who: RegisteredCustomer, valueUsd: number): Promise<string> {
  const orderId = await placeConfirmedBuyOrder(t, who, valueUsd);
  await t.request({
    method: 'POST',
    url: '/api/order/update',
    headers: who.auth,
    payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
  });
  return orderId;
}

const asAdmin = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.request({ method, url, headers: admin.auth, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  admin = await logIn(t, 'admin@offzero.local');
  referrer = await registerVerifiedCustomer(t, 'referrer.admin@example.com');
  await t.request({
    method: 'POST',
    url: '/api/user/settings/save',
    headers: referrer.auth,
    payload: { userId: referrer.userId, referralCode: 'AdminTestCode_01' },
  });
  ada = await registerCustomer(t, 'ada.admin@example.com', { referralCode: 'AdminTestCode_01' });
  await t.request({
    method: 'POST',
    url: '/api/dev/kyc/decide',
    // An established customer (the scam shield's new-customer rules are tested on their own).
    payload: {
      userId: ada.userId,
      status: 'GREEN',
      approvedAt: new Date(Date.now() - ESTABLISHED_APPROVAL_MS).toISOString(),
    },
  });
});
afterAll(async () => t.close());

describe('access', () => {
  it('answers 403 with no data to a customer on every admin endpoint', async () => {
    const calls: [string, string, object?][] = [
      ['GET', '/api/admin/queue'],
      ['GET', '/api/admin/orders'],
      ['GET', '/api/admin/orders/export.csv'],
      ['GET', `/api/admin/orders/00000000-0000-4000-8000-000000000000`],
      ['POST', `/api/admin/orders/00000000-0000-4000-8000-000000000000/mark-paid`, {}],
      ['POST', `/api/admin/orders/00000000-0000-4000-8000-000000000000/payout-btc`, { txid: TXID }],
      ['POST', `/api/admin/orders/00000000-0000-4000-8000-000000000000/send-btc`, {}],
      ['POST', `/api/admin/orders/00000000-0000-4000-8000-000000000000/payout-usd`, { reference: 'REF-1' }],
      ['POST', `/api/admin/orders/00000000-0000-4000-8000-000000000000/cancel`, { reason: 'nope' }],
      ['POST', `/api/admin/orders/00000000-0000-4000-8000-000000000000/resolve-flag`, { note: 'nope' }],
      ['GET', '/api/admin/kyc'],
      ['GET', `/api/admin/kyc/${ada.userId}`],
      ['GET', `/api/admin/kyc/${ada.userId}/document`],
      ['POST', `/api/admin/kyc/${ada.userId}`, { status: 'GREEN' }],
      ['GET', '/api/admin/users'],
      ['GET', `/api/admin/users/${ada.userId}`],
      ['POST', `/api/admin/users/${ada.userId}/disable`, { reason: 'test' }],
      ['POST', `/api/admin/users/${ada.userId}/enable`, { reason: 'test' }],
      ['PUT', '/api/admin/settings', {}],
      ['GET', '/api/admin/audit'],
    ];
    for (const [method, url, payload] of calls) {
      const response = await t.request({
        method: method,
        url,
        headers: ada.auth,
        ...(payload ? { payload } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      // The error answer and nothing else: `{ message, code }` (packages/shared/src/api/errors).
      expect(Object.keys(response.json())).toEqual(['message', 'code']);
      expect(response.json().code).toBe('FORBIDDEN');
      const visitor = await t.request({ method: method, url, ...(payload ? { payload } : {}) });
      expect(visitor.statusCode, `visitor ${method} ${url}`).toBe(401);
    }
  });
});

describe('a Zelle buy through the back office', () => {
  it('is marked paid, paid out, completed once, with one reward and one notice, all audited', async () => {
    const orderId = await zelleBuy(ada, 500);
    const queue = (await asAdmin('GET', '/api/admin/queue')).json();
    expect(queue.paymentsToCheck.map((o: { _id: string }) => o._id)).toContain(orderId);

    // Payout before the payment is confirmed is refused.
    const early = await asAdmin('POST', `/api/admin/orders/${orderId}/payout-btc`, { txid: TXID });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Mark the payment as received before sending the bitcoin.');

    expect((await asAdmin('POST', `/api/admin/orders/${orderId}/mark-paid`, {})).statusCode).toBe(200);
    expect((await asAdmin('POST', `/api/admin/orders/${orderId}/mark-paid`, {})).statusCode).toBe(409);

    for (const txid of ['', 'abc', 'z'.repeat(64), `${TXID}00`]) {
      expect(
        (await asAdmin('POST', `/api/admin/orders/${orderId}/payout-btc`, { txid })).statusCode,
        txid,
      ).toBe(400);
    }

    const before = await t.database.db.select().from(outboxMessages);
    const answers = await Promise.all([
      asAdmin('POST', `/api/admin/orders/${orderId}/payout-btc`, { txid: TXID }),
      asAdmin('POST', `/api/admin/orders/${orderId}/payout-btc`, { txid: 'b'.repeat(64) }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row?.status).toBe('completed');
    // Either call may take the row lock first; the order, its audit and the customer all show the winner's.
    const winningTxid = row?.txn;
    expect([TXID, 'b'.repeat(64)]).toContain(winningTxid);
    const rewards = await t.database.db
      .select()
      .from(referralRewards)
      .where(eq(referralRewards.orderId, orderId));
    expect(rewards).toHaveLength(1);
    // 10 % of the $7.50 platform fee.
    expect(rewards[0]).toMatchObject({
      referrerUserId: referrer.userId,
      tradingUserId: ada.userId,
      platformFeeCents: 750n,
      rewardCents: 75n,
    });
    const after = await t.database.db.select().from(outboxMessages);
    const completionNotices = after.slice(before.length).filter((m) => m.text.includes('is complete'));
    expect(completionNotices.length).toBe(2); // one e-mail and one SMS, once

    const detail = (await asAdmin('GET', `/api/admin/orders/${orderId}`)).json();
    expect(detail.timeline.map((e: { to: string }) => e.to)).toEqual(['pending', 'processing', 'completed']);
    expect(detail.timeline.at(-1).actor).toBe(`admin:${admin.userId}`);
    const audit = (await asAdmin('GET', `/api/admin/audit?targetId=${orderId}`)).json().entries;
    expect(audit.map((e: { action: string }) => e.action)).toEqual(['order.payout_btc', 'order.mark_paid']);
    expect(audit[0]).toMatchObject({
      admin: 'admin@offzero.local',
      before: { status: 'processing' },
      after: { status: 'completed', txn: winningTxid },
    });

    // The customer sees it completed with the transaction id.
    const list = (
      await t.app.inject({ method: 'GET', url: `/api/order/list?userId=${ada.userId}`, headers: ada.auth })
    ).json();
    expect(list.result.orders.find((o: { _id: string }) => o._id === orderId)).toMatchObject({
      status: 'completed',
      txn: winningTxid,
    });
  });

  it('refuses actions from the wrong state with 409 and a message', async () => {
    const orderId = await zelleBuy(ada, 60);
    await asAdmin('POST', `/api/admin/orders/${orderId}/cancel`, { reason: 'customer asked by phone' });
    for (const [url, payload] of [
      [`/api/admin/orders/${orderId}/mark-paid`, {}],
      [`/api/admin/orders/${orderId}/payout-usd`, { reference: 'WIRE-123' }],
      [`/api/admin/orders/${orderId}/cancel`, { reason: 'again' }],
    ] as const) {
      const response = await asAdmin('POST', url, payload);
      expect(response.statusCode, url).toBe(409);
      expect(response.json().message.length).toBeGreaterThan(10);
    }
  });

  it('reads the audit "before" inside the change: concurrent actions leave one chain of audit rows', async () => {
    const orderId = await zelleBuy(ada, 70);
    await t.database.db
      .update(orders)
      .set({ flag: 'capture_mismatch', flagNote: 'amount differs' })
      .where(eq(orders.id, orderId));
    // Hold each action at the start of its transaction until both have arrived, so both requests have
    // done everything they do before their transactions; each must still audit the state it changed.
    const db = t.database.db;
    const startTransaction = db.transaction.bind(db);
    let arrived = 0;
    let releaseBoth!: () => void;
    const bothArrived = new Promise<void>((resolve) => (releaseBoth = resolve));
    const held = vi.spyOn(db, 'transaction').mockImplementation(async (change, config) => {
      arrived += 1;
      if (arrived === 2) releaseBoth();
      await Promise.race([bothArrived, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      return startTransaction(change, config);
    });
    const answers = await Promise.all([
      asAdmin('POST', `/api/admin/orders/${orderId}/cancel`, { reason: 'customer asked by phone' }),
      asAdmin('POST', `/api/admin/orders/${orderId}/resolve-flag`, { note: 'checked the capture' }),
    ]).finally(() => held.mockRestore());
    expect(arrived).toBe(2);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ status: 'cancelled', flag: null });

    const entries: { action: string; before: Record<string, unknown>; after: Record<string, unknown> }[] = (
      await asAdmin('GET', `/api/admin/audit?targetId=${orderId}`)
    ).json().entries;
    expect(entries.map((e) => e.action).sort()).toEqual(['order.cancel', 'order.resolve_flag']);
    const [first, second] = entries;
    // Whichever ran second started from what the first one left: its before is the first one's after.
    const chained = [
      [first, second],
      [second, first],
    ].filter(([earlier, later]) => JSON.stringify(later!.before) === JSON.stringify(earlier!.after));
    expect(chained).toHaveLength(1);
    const [earlier, later] = chained[0]!;
    expect(later!.before).toEqual(earlier!.after);
    expect(earlier!.before).toMatchObject({ status: 'processing', flag: 'capture_mismatch' });
  });

  it('sends the bitcoin through the demo chain and records the transaction', async () => {
    const orderId = await zelleBuy(ada, 80);
    await asAdmin('POST', `/api/admin/orders/${orderId}/mark-paid`, {});
    const sent = await asAdmin('POST', `/api/admin/orders/${orderId}/send-btc`, {});
    expect(sent.statusCode).toBe(200);
    expect(sent.json().order).toMatchObject({ status: 'completed' });
    expect(sent.json().order.txn).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('filters and export', () => {
  it('filters by status, type, method and customer, and exports CSV', async () => {
    const processing = (
      await asAdmin('GET', '/api/admin/orders?status=completed&type=buy&method=zelle&customer=ada.admin')
    ).json();
    expect(processing.total).toBeGreaterThanOrEqual(2);
    expect(
      processing.orders.every(
        (o: { status: string; customerEmail: string }) =>
          o.status === 'completed' && o.customerEmail === 'ada.admin@example.com',
      ),
    ).toBe(true);
    expect((await asAdmin('GET', '/api/admin/orders?status=nonsense')).statusCode).toBe(400);
    const csv = await asAdmin('GET', '/api/admin/orders/export.csv?customer=ada.admin');
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,created_at,customer_email,type,status,amount_btc,price_usd,value_usd,platform_fee_usd,network_fee_usd,bank_fee_usd,payment_method,txn,bank_txn,flag',
    );
    expect(lines.length).toBeGreaterThanOrEqual(4);
  });
});

describe('search by the number a customer quotes', () => {
  it('finds an order and its customer by the first 8 characters of the id, as customers write it', async () => {
    const orderId = await zelleBuy(ada, 65);
    const short = orderId.slice(0, 8);
    const customerShort = ada.userId.slice(0, 8);
    const foundOrders = async (term: string) =>
      (await asAdmin('GET', `/api/admin/orders?customer=${encodeURIComponent(term)}&limit=500`)).json()
        .orders as { _id: string; customerEmail: string }[];
    for (const term of [short, short.toUpperCase(), `#${short}`, `Order #${short}`, `order ${short}`]) {
      expect(
        (await foundOrders(term)).map((o) => o._id),
        term,
      ).toEqual([orderId]);
    }
    for (const term of [`Customer id ${customerShort}`, `#${customerShort}`, customerShort]) {
      const found = await foundOrders(term);
      expect(found.length, term).toBeGreaterThan(1);
      expect(
        found.every((o) => o.customerEmail === 'ada.admin@example.com'),
        term,
      ).toBe(true);
      expect(
        found.map((o) => o._id),
        term,
      ).toContain(orderId);
    }
    // Another customer's number finds none of this customer's orders.
    expect((await foundOrders(`Customer id ${referrer.userId.slice(0, 8)}`)).map((o) => o._id)).not.toContain(
      orderId,
    );
    // Seven characters are no order number: nothing is guessed from them.
    expect(await foundOrders(`Order #${short.slice(0, 7)}`)).toEqual([]);

    const foundCustomers = async (term: string) =>
      (await asAdmin('GET', `/api/admin/users?q=${encodeURIComponent(term)}`)).json().users as {
        _id: string;
      }[];
    for (const term of [`Customer id ${customerShort}`, `#${customerShort.toUpperCase()}`, customerShort]) {
      expect(
        (await foundCustomers(term)).map((u) => u._id),
        term,
      ).toEqual([ada.userId]);
    }
    // The order's number finds the customer who placed it.
    expect((await foundCustomers(`Order #${short}`)).map((u) => u._id)).toEqual([ada.userId]);
  });
});

describe('settings editor', () => {
  const current = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin.auth })).json().settings;

  it('refuses min above max, a fee above 100 %, negative charges and an active method without details', async () => {
    const base = await current();
    const bad = [
      { ...base, order: { ...base.order, min_order_size: 20000 } },
      { ...base, order: { ...base.order, platform_fees: 100.5 } },
      { ...base, order: { ...base.order, platform_fees: -1 } },
      { ...base, zelle: { ...base.zelle, bank_charges: -2 } },
      { ...base, zelle: { ...base.zelle, payment_address: '' } },
      { ...base, order: { ...base.order, platform_fees: 1.555 } },
      { ...base, role: 'admin' },
    ];
    for (const payload of bad)
      expect((await asAdmin('PUT', '/api/admin/settings', payload)).statusCode).toBe(400);
    expect(await current()).toEqual(base);
  });

  it('saves valid settings, audits before and after, and new quotes use them at once', async () => {
    const base = await current();
    const response = await asAdmin('PUT', '/api/admin/settings', {
      ...base,
      order: { ...base.order, platform_fees: 2, min_order_size: 25 },
    });
    expect(response.statusCode).toBe(200);
    const publicView = (await t.app.inject({ method: 'GET', url: '/api/admin/settings' })).json().settings;
    expect(publicView.order).toMatchObject({ platform_fees: 2, min_order_size: 25 });
    const [entry] = (await asAdmin('GET', '/api/admin/audit?action=settings')).json().entries;
    expect(entry.before.order.platform_fees).toBe(1.5);
    expect(entry.after.order.platform_fees).toBe(2);
    // A quote made with the old 1.5 % fee is now refused.
    const stale = await zelleBuyQuoteStatus();
    expect(stale).toBe(400);
    await asAdmin('PUT', '/api/admin/settings', base);
  });

  it('edits each method’s arrival timing, refuses a blank or multi-line one, and keeps it when left out', async () => {
    const base = await current();
    for (const arrival of [
      { ...base.arrival, zelle: '   ' },
      { ...base.arrival, ach: 'Two days\nor three' },
      { ...base.arrival, wire: 'x'.repeat(161) },
      { ...base.arrival, cash: 'Today' },
    ]) {
      const refused = await asAdmin('PUT', '/api/admin/settings', { ...base, arrival });
      expect(refused.statusCode, JSON.stringify(arrival)).toBe(400);
    }
    expect(await current()).toEqual(base);
    const edited = { ...base.arrival, wire: 'Next business day.' };
    expect((await asAdmin('PUT', '/api/admin/settings', { ...base, arrival: edited })).statusCode).toBe(200);
    const publicView = (await t.app.inject({ method: 'GET', url: '/api/admin/settings' })).json().settings;
    expect(publicView.arrival).toEqual(edited);
    // An editor that does not send the group leaves it as it is.
    const { arrival: _arrival, ...withoutArrival } = base;
    expect((await asAdmin('PUT', '/api/admin/settings', withoutArrival)).statusCode).toBe(200);
    expect((await current()).arrival).toEqual(edited);
    await asAdmin('PUT', '/api/admin/settings', base);
  });

  async function zelleBuyQuoteStatus(): Promise<number> {
    // Built with the old 1.5 % fee.
    const response = await t.request({
      method: 'POST',
      url: '/api/order/save',
      headers: ada.auth,
      payload: await buyOrderPayload(t, ada, 100),
    });
    return response.statusCode;
  }
});

describe('KYC review and customers', () => {
  it('approves or rejects a case under review, with a reason for a rejection', async () => {
    const carol = await registerCustomer(t, 'carol.admin@example.com');
    await t.request({
      method: 'POST',
      url: '/api/dev/kyc/decide',
      payload: { userId: carol.userId, status: 'YELLOW' },
    });
    const cases = (await asAdmin('GET', '/api/admin/kyc')).json().cases;
    expect(cases.map((c: { userId: string }) => c.userId)).toContain(carol.userId);
    expect((await asAdmin('POST', `/api/admin/kyc/${carol.userId}`, { status: 'RED' })).statusCode).toBe(400);
    expect(
      (
        await asAdmin('POST', `/api/admin/kyc/${carol.userId}`, {
          status: 'RED',
          reason: 'Document unreadable',
        })
      ).statusCode,
    ).toBe(200);
    expect((await asAdmin('POST', `/api/admin/kyc/${carol.userId}`, { status: 'GREEN' })).statusCode).toBe(
      409,
    );
    const seen = (
      await t.app.inject({ method: 'GET', url: `/api/kyc/${carol.userId}`, headers: carol.auth })
    ).json();
    expect(seen.kyc).toMatchObject({ status: 'RED', reviewNote: 'Document unreadable' });
  });

  it('finds customers and disables one: their sessions end and they cannot log in', async () => {
    const dave = await registerVerifiedCustomer(t, 'dave.admin@example.com');
    const found = (await asAdmin('GET', '/api/admin/users?q=dave.admin')).json().users;
    expect(found.map((u: { _id: string }) => u._id)).toEqual([dave.userId]);
    const byPhone = (await asAdmin('GET', `/api/admin/users?q=${encodeURIComponent(dave.phone)}`)).json()
      .users;
    expect(byPhone.map((u: { _id: string }) => u._id)).toEqual([dave.userId]);
    const detail = (await asAdmin('GET', `/api/admin/users/${dave.userId}`)).json();
    expect(detail).toMatchObject({
      user: { email: 'dave.admin@example.com', disabled: false },
      kyc: { status: 'GREEN' },
    });

    expect(
      (await asAdmin('POST', `/api/admin/users/${dave.userId}/disable`, { reason: 'fraud review' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/user/${dave.userId}`, headers: dave.auth })).statusCode,
    ).toBe(401);
    // A disabled account gets the answer anyone gets (docs/design.md), but no login code.
    const codesBefore = (
      await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${dave.email}` })
    ).json().messages.length;
    expect(
      (await t.request({ method: 'POST', url: '/api/user/login-otp/send', payload: { email: dave.email } }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${dave.email}` })).json().messages,
    ).toHaveLength(codesBefore);
    expect(
      (await asAdmin('POST', `/api/admin/users/${dave.userId}/disable`, { reason: 'again' })).statusCode,
    ).toBe(409);
    expect(
      (await asAdmin('POST', `/api/admin/users/${dave.userId}/enable`, { reason: 'cleared' })).statusCode,
    ).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, dave.userId));
    expect(row?.disabledAt).toBeNull();
    expect(
      (await asAdmin('POST', `/api/admin/users/${admin.userId}/disable`, { reason: 'oops' })).statusCode,
    ).toBe(409);
  });
});
