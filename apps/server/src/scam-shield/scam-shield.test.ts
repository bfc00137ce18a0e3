import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCAM_MESSAGES } from '@offzero/shared/places/scam-shield';
import { adminActions, kycRecords, monitoringCases, orders, payouts, shieldDecisions } from '../db/schema';
import { checkPayoutDestination } from '../payout-addresses/payout-destination';
import { checkPlaceForMoneyRoute, ShieldRefusal } from '../places/place-check';
import {
  logIn,
  registerCustomer,
  registerVerifiedCustomer,
  type RegisteredCustomer,
} from '../test/accounts-helpers';
import { buyOrderPayload, TEST_WALLET } from '../test/buy-helpers';
import { fileW9, saveBank, saveZelle } from '../test/sell-helpers';
import { newBuyOrderRow } from '../test/new-buy-order-row';
import { createTestApp, type TestApp } from '../test/test-app';

/** docs/design.md, "Places and the scam shield". */
let t: TestApp;
let admin: RegisteredCustomer;
let approver: RegisteredCustomer;

const NY_CLOSED = 'OffZero is not available in New York yet.';
const SCAM_ANSWER = { ownWallet: true, someoneAskedMe: false };

beforeAll(async () => {
  t = await createTestApp({ CHAIN_POLL_SECONDS: '600' });
  admin = await logIn(t, 'admin@offzero.local');
  approver = await logIn(t, 'approver@offzero.local');
});
afterAll(async () => t.close());

const post = (who: RegisteredCustomer, url: string, payload: object = {}) =>
  t.request({ method: 'POST', url, headers: who.auth, payload });

const saveBuy = async (who: RegisteredCustomer, usd: number, overrides: Record<string, unknown> = {}) =>
  post(who, '/api/order/save', await buyOrderPayload(t, who, usd, overrides));

/** A customer approved `hoursAgo` hours ago, living in `state`. */
const customer = (email: string, state: string, hoursAgo: number) =>
  registerVerifiedCustomer(t, email, {
    residenceState: state,
    approvedAt: new Date(Date.now() - hoursAgo * 3_600_000).toISOString(),
  });

const decisionsOf = async (userId: string) =>
  (await t.database.db.select().from(shieldDecisions).where(eq(shieldDecisions.userId, userId))).map(
    (row) => row.decision,
  );

describe('the places rules', () => {
  it('lists every state, DC and territory publicly, New York closed for both', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/jurisdictions' });
    expect(answer.statusCode).toBe(200);
    const { version, jurisdictions } = answer.json<{
      version: number;
      jurisdictions: { code: string; buy: boolean; sell: boolean; licence: string }[];
    }>();
    expect(version).toBeGreaterThanOrEqual(1);
    expect(jurisdictions).toHaveLength(56);
    const ny = jurisdictions.find((place) => place.code === 'NY');
    expect(ny).toMatchObject({ buy: false, sell: false });
    const open = jurisdictions.filter((place) => place.code !== 'NY');
    expect(open.every((place) => place.buy && place.sell && place.licence.length > 0)).toBe(true);
  });

  it('refuses a New York resident on every money route before anything is saved', async () => {
    const nora = await customer('nora.ny@example.com', 'NY', 200);
    await saveBank(t, nora);
    await fileW9(t, nora);
    await saveZelle(t, nora, 'nora.ny.zelle@example.com');
    const refusals = [
      await post(nora, '/api/quotes', { type: 'buy', value: 100 }),
      await post(nora, '/api/quotes', { type: 'sell', amount: 0.01, method: 'zelle' }),
      await saveBuy(nora, 100),
      await post(nora, '/api/order/save', {
        userId: nora.userId,
        pair: 'BTC-USD',
        type: 'sell',
        amount: 0.01,
        value: 1,
        price: 1,
        platformFee: 0,
        bankAccount: { method: 'zelle' },
      }),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'PLACE_CLOSED', message: NY_CLOSED });
    }
    const saved = await t.database.db.select().from(orders).where(eq(orders.userId, nora.userId));
    expect(saved).toHaveLength(0);
    expect(await decisionsOf(nora.userId)).toEqual(Array(4).fill('place_refused'));
  });

  it('refuses the re-quote of a buy once the customer turns out to live in New York', async () => {
    const mo = await customer('mo.moves@example.com', 'CA', 200);
    const saved = await saveBuy(mo, 100);
    expect(saved.statusCode, saved.body).toBe(200);
    const orderId = saved.json().order._id as string;
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(row).toMatchObject({ jurisdictionCode: 'CA', jurisdictionVersion: expect.any(Number) });

    // A new verification says New York.
    await t.request({
      method: 'POST',
      url: '/api/dev/kyc/decide',
      payload: {
        userId: mo.userId,
        status: 'GREEN',
        residenceState: 'NY',
        approvedAt: '2026-01-01T00:00:00Z',
      },
    });
    const requote = await post(mo, '/api/order/update', {
      ...(await buyOrderPayload(t, mo, 100)),
      _id: orderId,
    });
    expect(requote.statusCode, requote.body).toBe(403);
    expect(requote.json().message).toBe(NY_CLOSED);
  });

  it('answers the plan runs and inbound-credit buys through the same one check', async () => {
    const nina = await customer('nina.ny@example.com', 'NY', 200);
    for (const route of ['plan-run', 'inbound-credit-buy'] as const) {
      const refused = await checkPlaceForMoneyRoute(t.database.db, {
        userId: nina.userId,
        side: 'buy',
        route,
        valueCents: 10_000n,
      }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ShieldRefusal);
      expect((refused as ShieldRefusal).message).toBe(NY_CLOSED);
    }
    const texan = await customer('tex.open@example.com', 'TX', 200);
    const open = await checkPlaceForMoneyRoute(t.database.db, {
      userId: texan.userId,
      side: 'buy',
      route: 'plan-run',
    });
    expect(open).toMatchObject({ code: 'TX', rule: { buy: true } });
  });

  it('refuses a New York customer a recurring buy plan, before any debit', async () => {
    const nick = await customer('nick.ny.plan@example.com', 'NY', 200);
    const refused = await post(nick, '/api/plans', {
      amountUsd: '50',
      frequency: 'weekly',
      firstRunOn: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
      payoutAddressId: '00000000-0000-4000-8000-000000000000',
      authorization: { accepted: true },
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'PLACE_CLOSED', message: NY_CLOSED });
    expect(await decisionsOf(nick.userId)).toContain('place_refused');
  });

  it('refuses a New York KYC submission at once, storing nothing', async () => {
    const who = await registerCustomer(t, 'nell.kyc@example.com');
    const form = new FormData();
    const fields = {
      legalName: 'Nell Ny',
      dateOfBirth: '1990-01-01',
      country: 'US',
      residenceState: 'NY',
      documentType: 'passport',
      documentNumber: 'NY123456',
    };
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    form.append('document', new Blob([png], { type: 'image/png' }), 'id.png');
    const request = new Request('http://local/', { method: 'POST', body: form });
    const refused = await t.request({
      method: 'POST',
      url: '/api/kyc/local/submit',
      headers: { ...who.auth, 'content-type': request.headers.get('content-type')! },
      payload: Buffer.from(await request.arrayBuffer()),
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toBe(NY_CLOSED);
    const records = await t.database.db.select().from(kycRecords).where(eq(kycRecords.userId, who.userId));
    expect(records).toHaveLength(0);
  });

  it('answers a place code that does not exist with a clear 404 or 400', async () => {
    const put = await t.request({
      method: 'PUT',
      url: '/api/admin/jurisdictions/ZZ',
      headers: admin.auth,
      payload: {
        buy: true,
        sell: true,
        newCustomerDailyUsd: null,
        orderMaxUsd: null,
        licence: '',
        disclosures: '',
      },
    });
    expect(put.statusCode).toBe(404);
    expect(put.json().message).toContain('"ZZ" is not a US state, DC or territory code');
    const who = await registerVerifiedCustomer(t, 'zed.place@example.com');
    const decide = await t.request({
      method: 'POST',
      url: '/api/dev/kyc/decide',
      payload: { userId: who.userId, status: 'GREEN', residenceState: 'ZZ' },
    });
    expect(decide.statusCode).toBe(400);
  });

  it('applies a rules edit only when a second admin carries it out, audited', async () => {
    const rules = {
      buy: true,
      sell: true,
      newCustomerDailyUsd: 300,
      orderMaxUsd: 5000,
      licence: 'Licensed by the Vermont Department of Financial Regulation.',
      disclosures: 'Bitcoin can lose value.',
    };
    const put = (who: RegisteredCustomer, body: object = rules) =>
      t.request({ method: 'PUT', url: '/api/admin/jurisdictions/vt', headers: who.auth, payload: body });
    const vt = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/jurisdictions' }))
        .json<{ jurisdictions: { code: string; orderMaxUsd: number | null; version: number }[] }>()
        .jurisdictions.find((place) => place.code === 'VT')!;
    const before = await vt();

    const first = await put(admin);
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json()).toMatchObject({
      approval: { action: 'jurisdiction.edit', requestedBy: 'admin@offzero.local' },
    });
    expect(await vt()).toEqual(before);
    expect((await put(admin)).statusCode).toBe(409);
    expect((await put(approver, { ...rules, orderMaxUsd: 9000 })).statusCode).toBe(409);
    expect(await vt()).toEqual(before);

    const second = await put(approver);
    expect(second.statusCode, second.body).toBe(200);
    const after = await vt();
    expect(after.orderMaxUsd).toBe(5000);
    expect(after.version).toBeGreaterThan(before.version);
    const audit = await t.database.db
      .select()
      .from(adminActions)
      .where(and(eq(adminActions.targetType, 'jurisdiction'), eq(adminActions.targetId, 'VT')));
    expect(audit.map((entry) => entry.action).sort()).toEqual([
      'jurisdiction.edited',
      'jurisdiction.four_eyes_requested',
    ]);

    // In force at once: a Vermont order above the place's maximum is refused, a quote carries the licence.
    const val = await customer('val.vt@example.com', 'VT', 200);
    const tooLarge = await saveBuy(val, 6000);
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json().message).toBe('Orders from Vermont are limited to $5,000.00.');
    const quote = await post(val, '/api/quotes', { type: 'buy', value: 100 });
    expect(quote.json().quote.place).toMatchObject({
      code: 'VT',
      licence: rules.licence,
      disclosures: rules.disclosures,
    });
  });
});

describe('new customers', () => {
  it('refuses a first buy without the scam answer, and keeps the answer with the buy', async () => {
    const nia = await customer('nia.new@example.com', 'CA', 1);
    const missing = await saveBuy(nia, 100);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'SCAM_CHECK_REQUIRED',
      message: SCAM_MESSAGES.questionMissing,
    });
    const notOwn = await saveBuy(nia, 100, { scamCheck: { ownWallet: false, someoneAskedMe: false } });
    expect(notOwn.statusCode).toBe(400);

    const answered = await saveBuy(nia, 100, { scamCheck: SCAM_ANSWER });
    expect(answered.statusCode, answered.body).toBe(200);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, answered.json().order._id));
    expect(row?.scamCheck).toEqual(SCAM_ANSWER);
    // The second buy needs no answer.
    expect((await saveBuy(nia, 50)).statusCode).toBe(200);
    expect(await decisionsOf(nia.userId)).toEqual(
      expect.arrayContaining(['scam_question_missing', 'scam_answer_ok', 'cooling_off']),
    );
  });

  it('stops a customer someone asked to buy: the guidance, a case, no order', async () => {
    const sam = await customer('sam.asked@example.com', 'CA', 1);
    const stopped = await saveBuy(sam, 100, { scamCheck: { ownWallet: true, someoneAskedMe: true } });
    expect(stopped.statusCode).toBe(400);
    expect(stopped.json().code).toBe('SCAM_SUSPECTED');
    expect(stopped.json().message).toContain('ic3.gov');
    expect(stopped.json().message).toContain('reportfraud.ftc.gov');
    expect(stopped.json().message).toContain('bank');
    expect(await t.database.db.select().from(orders).where(eq(orders.userId, sam.userId))).toHaveLength(0);
    const cases = await t.database.db
      .select()
      .from(monitoringCases)
      .where(and(eq(monitoringCases.userId, sam.userId), eq(monitoringCases.rule, 'scam_suspected')));
    expect(cases).toHaveLength(1);
  });

  it("refuses the answer sent for another customer, and another customer's order", async () => {
    const owner = await customer('owen.owner@example.com', 'CA', 1);
    const other = await customer('olga.other@example.com', 'CA', 1);
    const forOther = await post(owner, '/api/order/save', {
      ...(await buyOrderPayload(t, owner, 100)),
      userId: other.userId,
      scamCheck: { ownWallet: true, someoneAskedMe: true },
    });
    expect(forOther.statusCode).toBe(403);
    const cases = await t.database.db
      .select()
      .from(monitoringCases)
      .where(eq(monitoringCases.userId, other.userId));
    expect(cases).toHaveLength(0);

    const saved = await saveBuy(other, 100, { scamCheck: SCAM_ANSWER });
    expect(saved.statusCode).toBe(200);
    const cancel = await post(owner, `/api/order/${saved.json().order._id}/scam-cancel`);
    expect(cancel.statusCode).toBe(404);
  });

  it('holds the daily cap under two buys at once: exactly one succeeds', async () => {
    const cara = await customer('cara.cap@example.com', 'CA', 1);
    // The first buy, answered, so the two racing buys are both later buys.
    expect((await saveBuy(cara, 100, { scamCheck: SCAM_ANSWER })).statusCode).toBe(200);
    const [a, b] = await Promise.all([
      saveBuy(cara, 600, { walletAddress: TEST_WALLET }),
      saveBuy(cara, 601, { walletAddress: TEST_WALLET }),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses).toEqual([200, 400]);
    const refused = a.statusCode === 400 ? a : b;
    expect([SCAM_MESSAGES.newCustomerCap('$300.00'), SCAM_MESSAGES.newCustomerCap('$299.00')]).toContain(
      refused.json().message,
    );
    expect(await decisionsOf(cara.userId)).toContain('new_customer_cap');
  });

  it('lets an established customer buy beyond the new-customer cap with no question', async () => {
    const eli = await customer('eli.established@example.com', 'CA', 100);
    expect((await saveBuy(eli, 1500)).statusCode).toBe(200);
  });
});

describe('cooling off', () => {
  it('holds the payout of a new destination and lets the customer cancel it as a scam, refund recorded', async () => {
    const cody = await customer('cody.cool@example.com', 'CA', 1);
    const saved = await saveBuy(cody, 200, { scamCheck: SCAM_ANSWER });
    expect(saved.statusCode, saved.body).toBe(200);
    const order = saved.json().order;
    expect(order.scamCancel).toBe(true);
    expect(Date.parse(order.coolingUntil)).toBeGreaterThan(Date.now() + 23 * 3_600_000);

    const paid = await post(cody, '/api/order/update', {
      _id: order._id,
      payment: { method: 'zelle' },
      status: 'processing',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    const destination = await checkPayoutDestination(t.database.db, row!, new Date());
    expect(destination).toMatchObject({ due: false });
    // Whatever else holds it (the address waits for its e-mailed confirmation), past that the cooling-off holds.
    const later = await checkPayoutDestination(
      t.database.db,
      { ...row!, payoutAddressId: null, walletAddress: TEST_WALLET },
      new Date(Date.now() + 3_600_000),
    );
    expect(later.due).toBe(false);

    const cancelled = await post(cody, `/api/order/${order._id}/scam-cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().order.status).toBe('cancelled');
    expect(cancelled.json().message).toBe(SCAM_MESSAGES.cancelled);
    const refunds = await t.database.db.select().from(payouts).where(eq(payouts.orderId, order._id));
    expect(refunds).toEqual([
      expect.objectContaining({
        kind: 'usd',
        purpose: 'refund',
        rail: 'zelle',
        state: 'requested',
        sender: 'operator',
      }),
    ]);
    expect((await post(cody, `/api/order/${order._id}/scam-cancel`)).statusCode).toBe(409);
    expect(await decisionsOf(cody.userId)).toContain('scam_cancel');
  });

  it("counts only the customer's own payouts: an address OffZero paid for someone else still cools off", async () => {
    // A scammer's address is paid for many victims: another customer's completed buy to it proves nothing.
    const olga = await customer('olga.paid@example.com', 'CA', 200);
    await t.database.db
      .insert(orders)
      .values({
        ...newBuyOrderRow(olga.userId, 10_000n, { walletAddress: TEST_WALLET }),
        status: 'completed',
      });
    const nia = await customer('nia.cool@example.com', 'CA', 1);
    const saved = await saveBuy(nia, 100, { scamCheck: SCAM_ANSWER });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().order.scamCancel).toBe(true);
  });

  it('counts every decision in the metrics', async () => {
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/offzero_shield_decisions\{decision="place_refused"\} \d+/);
    expect(metrics.body).toMatch(/offzero_shield_decisions\{decision="scam_cancel"\} [1-9]/);
  });
});
