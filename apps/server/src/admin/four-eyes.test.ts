import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminActions, fourEyesApprovals, globalSettings, orders, payouts } from '../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { placeBuyOrder } from '../test/buy-helpers';
import { saveBank, saveZelle, sellOrder, fileW9 } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

/** docs/design.md, four eyes: a large buy marked paid or sell paid out needs two different admins. */
let t: TestApp;
let admin: RegisteredCustomer;
let approver: RegisteredCustomer;
let ada: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp({ CHAIN_POLL_SECONDS: '600' });
  admin = await logIn(t, 'admin@offzero.local');
  approver = await logIn(t, 'approver@offzero.local');
  ada = await registerVerifiedCustomer(t, 'ada.foureyes@example.com');
  await saveBank(t, ada);
  await fileW9(t, ada);
  await saveZelle(t, ada, 'ada.foureyes.zelle@example.com');
  await fileW9(t, ada);
});
afterAll(async () => t.close());

const as = (who: RegisteredCustomer, url: string, payload: object = {}) =>
  t.request({ method: 'POST', url, headers: who.auth, payload });

async function zelleBuy(valueUsd: number, who: RegisteredCustomer = ada): Promise<string> {
  const orderId = await placeBuyOrder(t, who, valueUsd);
  const update = await t.request({
    method: 'POST',
    url: '/api/order/update',
    headers: who.auth,
    payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
  });
  expect(update.statusCode).toBe(200);
  return orderId;
}

async function orderRow(id: string) {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  return row!;
}

describe('mark-paid on a buy', () => {
  it('needs one admin below the threshold (default $3,000)', async () => {
    const orderId = await zelleBuy(2999.99);
    const response = await as(admin, `/api/admin/orders/${orderId}/mark-paid`);
    expect(response.statusCode).toBe(200);
  });

  it('needs a second admin at the threshold: 202 changes nothing, the same admin again 409, another 200', async () => {
    const orderId = await zelleBuy(3000);
    const before = await orderRow(orderId);

    const first = await as(admin, `/api/admin/orders/${orderId}/mark-paid`, {
      note: 'bank statement checked',
    });
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({
      message: 'Waiting for a second approver.',
      approval: { id: expect.any(String), action: 'order.mark_paid', requestedBy: 'admin@offzero.local' },
    });
    expect(await orderRow(orderId)).toEqual(before);
    const requested = await t.database.db
      .select()
      .from(adminActions)
      .where(eq(adminActions.targetId, orderId));
    expect(requested.map((entry) => entry.action)).toEqual(['order.four_eyes_requested']);

    const again = await as(admin, `/api/admin/orders/${orderId}/mark-paid`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('SECOND_APPROVER_REQUIRED');
    expect((await orderRow(orderId)).paymentConfirmedAt).toBeNull();

    const second = await as(approver, `/api/admin/orders/${orderId}/mark-paid`);
    expect(second.statusCode).toBe(200);
    const after = await orderRow(orderId);
    expect(after.paymentConfirmedAt).not.toBeNull();
    expect(after.paymentConfirmedBy).toBe('approver@offzero.local');

    const [approval] = await t.database.db
      .select()
      .from(fourEyesApprovals)
      .where(eq(fourEyesApprovals.orderId, orderId));
    expect(approval?.approvedAt).not.toBeNull();
    expect(approval?.approvedByUserId).toBe(approver.userId);
    const audit = await t.database.db.select().from(adminActions).where(eq(adminActions.targetId, orderId));
    expect(audit.map((entry) => entry.action).sort()).toEqual(
      ['order.four_eyes_approved', 'order.four_eyes_requested', 'order.mark_paid'].sort(),
    );
  });

  it('refuses a customer and a visitor before any request is recorded', async () => {
    const orderId = await zelleBuy(3500);
    expect((await as(ada, `/api/admin/orders/${orderId}/mark-paid`)).statusCode).toBe(403);
    expect(
      (await t.request({ method: 'POST', url: `/api/admin/orders/${orderId}/mark-paid`, payload: {} }))
        .statusCode,
    ).toBe(401);
    const open = await t.database.db
      .select()
      .from(fourEyesApprovals)
      .where(eq(fourEyesApprovals.orderId, orderId));
    expect(open).toEqual([]);
  });

  it('follows the threshold set in the settings editor', async () => {
    const settings = await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin.auth });
    const current = settings.json().settings;
    expect(current.order.four_eyes_usd).toBe(3000);
    const bad = await t.request({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: admin.auth,
      payload: { ...current, order: { ...current.order, four_eyes_usd: 0 } },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({ 'order.four_eyes_usd': 'Enter an amount above zero.' });
    const saved = await t.request({
      method: 'PUT',
      url: '/api/admin/settings',
      headers: admin.auth,
      payload: { ...current, order: { ...current.order, four_eyes_usd: 100 } },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings.order.four_eyes_usd).toBe(100);
    // Customers never see the threshold.
    const asCustomer = await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: ada.auth });
    expect(asCustomer.json().settings.order.four_eyes_usd).toBeUndefined();

    const orderId = await zelleBuy(150);
    expect((await as(admin, `/api/admin/orders/${orderId}/mark-paid`)).statusCode).toBe(202);
  });
});

describe('payout-usd on a sell', () => {
  it('needs a second admin at the threshold', async () => {
    // A seller of their own: the buys above used most of ada's 24-hour trading limit.
    const bea = await registerVerifiedCustomer(t, 'bea.foureyes@example.com');
    await saveBank(t, bea);
    await saveZelle(t, bea, 'bea.foureyes.zelle@example.com');
    await fileW9(t, bea);
    const { payload } = await sellOrder(t, bea, 0.01);
    const saved = await t.request({ method: 'POST', url: '/api/order/save', headers: bea.auth, payload });
    expect(saved.statusCode).toBe(200);
    const orderId = saved.json().order._id as string;
    // The coins arrived and are deep enough (what the deposit watcher records).
    await t.database.db
      .update(orders)
      .set({ status: 'processing', confirmations: 6 })
      .where(eq(orders.id, orderId));
    const row = await orderRow(orderId);
    expect(row.valueCents).toBeGreaterThanOrEqual(10_000n); // above the $100 set above

    const first = await as(approver, `/api/admin/orders/${orderId}/payout-usd`, { reference: 'ZELLE-1' });
    expect(first.statusCode).toBe(202);
    expect(first.json().approval).toMatchObject({
      action: 'order.payout_usd',
      requestedBy: 'approver@offzero.local',
    });
    expect((await orderRow(orderId)).status).toBe('processing');
    expect(
      (await as(approver, `/api/admin/orders/${orderId}/payout-usd`, { reference: 'ZELLE-1' })).statusCode,
    ).toBe(409);
    const second = await as(admin, `/api/admin/orders/${orderId}/payout-usd`, { reference: 'ZELLE-1' });
    expect(second.statusCode).toBe(200);
    expect((await orderRow(orderId)).status).toBe('completed');
  });
});

describe('four eyes on flagged orders and on the details requested', () => {
  let cleo: RegisteredCustomer;
  beforeAll(async () => {
    await t.database.db.update(globalSettings).set({ fourEyesCents: 10_000n });
    cleo = await registerVerifiedCustomer(t, 'cleo.foureyes@example.com');
    await saveBank(t, cleo);
    await saveZelle(t, cleo, 'cleo.foureyes.zelle@example.com');
    await fileW9(t, cleo);
  });

  /** A sell of cleo's whose deposit is in and deep enough: its dollars may be paid out. */
  async function confirmedSell(): Promise<string> {
    const { payload } = await sellOrder(t, cleo, 0.01);
    const saved = await t.request({ method: 'POST', url: '/api/order/save', headers: cleo.auth, payload });
    expect(saved.statusCode).toBe(200);
    const orderId = saved.json().order._id as string;
    await t.database.db
      .update(orders)
      .set({ status: 'processing', confirmations: 6 })
      .where(eq(orders.id, orderId));
    expect((await orderRow(orderId)).valueCents).toBeGreaterThanOrEqual(10_000n);
    return orderId;
  }

  const approvalsOf = (orderId: string) =>
    t.database.db.select().from(fourEyesApprovals).where(eq(fourEyesApprovals.orderId, orderId));
  const payoutsOf = (orderId: string) =>
    t.database.db.select().from(payouts).where(eq(payouts.orderId, orderId));

  it('refuses a flagged order with 409 "Resolve the flag first." before any approval is requested', async () => {
    const sell = await confirmedSell();
    const buy = await zelleBuy(150, cleo);
    const small = await zelleBuy(60, cleo);
    for (const id of [sell, buy, small]) {
      await t.database.db
        .update(orders)
        .set({ flag: 'duplicate_reference', flagNote: 'reference seen on another order' })
        .where(eq(orders.id, id));
    }
    const calls = [
      [sell, await as(admin, `/api/admin/orders/${sell}/payout-usd`, { reference: 'ZELLE-FLAG' })],
      [buy, await as(admin, `/api/admin/orders/${buy}/mark-paid`)],
      // Below the threshold too: a flagged buy is not marked paid by one admin either.
      [small, await as(admin, `/api/admin/orders/${small}/mark-paid`)],
    ] as const;
    for (const [orderId, answer] of calls) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json().message).toBe('Resolve the flag first.');
      expect(await approvalsOf(orderId)).toEqual([]);
      expect(
        await t.database.db.select().from(adminActions).where(eq(adminActions.targetId, orderId)),
      ).toEqual([]);
    }
    expect(await payoutsOf(sell)).toEqual([]);
    expect((await orderRow(sell)).status).toBe('processing');
    expect((await orderRow(buy)).paymentConfirmedAt).toBeNull();
  });

  it('carries out exactly the reference requested and refuses a second admin asking for another one', async () => {
    const orderId = await confirmedSell();
    const first = await as(approver, `/api/admin/orders/${orderId}/payout-usd`, { reference: 'ZELLE-A100' });
    expect(first.statusCode).toBe(202);

    const other = await as(admin, `/api/admin/orders/${orderId}/payout-usd`, { reference: 'ZELLE-B200' });
    expect(other.statusCode).toBe(409);
    expect(other.json().message).toBe(
      'approver@offzero.local requested this for reference "ZELLE-A100"; this call is for reference ' +
        '"ZELLE-B200". Nothing was done: carry out exactly what was requested, or ask ' +
        'approver@offzero.local to request it again.',
    );
    expect((await orderRow(orderId)).status).toBe('processing');
    expect(await payoutsOf(orderId)).toEqual([]);

    // The requester mistyped: asking again with another reference replaces the request.
    const corrected = await as(approver, `/api/admin/orders/${orderId}/payout-usd`, {
      reference: 'ZELLE-C300',
    });
    expect(corrected.statusCode).toBe(202);
    expect(corrected.json().approval.id).toBe(first.json().approval.id);
    expect(
      (await as(admin, `/api/admin/orders/${orderId}/payout-usd`, { reference: 'ZELLE-A100' })).statusCode,
    ).toBe(409);

    const second = await as(admin, `/api/admin/orders/${orderId}/payout-usd`, { reference: 'ZELLE-C300' });
    expect(second.statusCode).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: 'completed', bankTxn: 'ZELLE-C300' });
    expect((await payoutsOf(orderId)).map((payout) => payout.reference)).toEqual(['ZELLE-C300']);
    const [approval] = await approvalsOf(orderId);
    expect(approval).toMatchObject({ approvedByUserId: admin.userId, details: { reference: 'ZELLE-C300' } });
    const audit = await t.database.db.select().from(adminActions).where(eq(adminActions.targetId, orderId));
    expect(audit.map((entry) => entry.action).sort()).toEqual(
      [
        'order.four_eyes_requested',
        'order.four_eyes_requested',
        'order.four_eyes_approved',
        'order.payout_usd',
      ].sort(),
    );
  });

  it('refuses to carry out an approval once the value of the order changed since it was requested', async () => {
    const orderId = await zelleBuy(150, cleo);
    expect((await as(admin, `/api/admin/orders/${orderId}/mark-paid`)).statusCode).toBe(202);
    const { valueCents } = await orderRow(orderId);
    await t.database.db
      .update(orders)
      .set({ valueCents: valueCents + 5_000n })
      .where(eq(orders.id, orderId));

    const stale = await as(approver, `/api/admin/orders/${orderId}/mark-paid`);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(
      /for an order value of \$150\.00; this call is for an order value of \$200\.00\./,
    );
    expect((await orderRow(orderId)).paymentConfirmedAt).toBeNull();

    // Asked again on the order as it is now, the second admin carries it out.
    expect((await as(admin, `/api/admin/orders/${orderId}/mark-paid`)).statusCode).toBe(202);
    const approved = await as(approver, `/api/admin/orders/${orderId}/mark-paid`);
    expect(approved.statusCode).toBe(200);
    expect((await orderRow(orderId)).paymentConfirmedBy).toBe('approver@offzero.local');
  });
});
