import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { btcNumberToSats, usdNumberToCents } from '@offzero/shared/money/money';
import { adminActions, kycRecords, orders, travelRuleRecords, users } from '../db/schema';
import {
  logIn,
  registerCustomer,
  registerVerifiedCustomer,
  type RegisteredCustomer,
} from '../test/accounts-helpers';
import { buyOrderPayload } from '../test/buy-helpers';
import { currentPrice, saveBank, saveZelle, sellOrder, fileW9 } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

/** docs/design.md: limits per KYC tier over rolling windows, and the Travel Rule record from $3,000. */
let t: TestApp;
let admin: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp({ CHAIN_POLL_SECONDS: '600' });
  admin = await logIn(t, 'admin@offzero.local');
});
afterAll(async () => t.close());

let customerCount = 0;
async function customer(): Promise<RegisteredCustomer> {
  customerCount += 1;
  return registerVerifiedCustomer(t, `limits.${customerCount}@example.com`);
}

const save = (who: RegisteredCustomer, payload: object) =>
  t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload });
const buy = async (who: RegisteredCustomer, valueUsd: number, overrides: Record<string, unknown> = {}) =>
  save(who, await buyOrderPayload(t, who, valueUsd, overrides));
const limitsOf = async (who: RegisteredCustomer, query = '') => {
  const response = await t.app.inject({ method: 'GET', url: `/api/limits${query}`, headers: who.auth });
  return response;
};
const windows = async (who: RegisteredCustomer) =>
  Object.fromEntries(
    (await limitsOf(who))
      .json<{ windows: { window: string; limitUsd: number; usedUsd: number; remainingUsd: number }[] }>()
      .windows.map(({ window, ...rest }) => [window, rest]),
  );

/** An order placed earlier (the clock cannot be moved in an API test): straight into the table. */
async function pastOrder(
  who: RegisteredCustomer,
  valueUsd: number,
  daysAgo: number,
  status: 'completed' | 'expired' | 'cancelled' = 'completed',
) {
  const createdAt = new Date(Date.now() - daysAgo * 24 * 3_600_000);
  await t.database.db.insert(orders).values({
    userId: who.userId,
    type: 'buy',
    status,
    amountSats: 100_000n,
    valueCents: usdNumberToCents(valueUsd),
    priceCents: 9_000_000n,
    platformFeeCents: 0n,
    quoteExpiresAt: createdAt,
    walletAddress: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
    createdAt,
    updatedAt: createdAt,
  });
}

describe('GET /api/limits', () => {
  it('starts a customer at tier 1 with the default limits and nothing used', async () => {
    const ada = await customer();
    const response = await limitsOf(ada);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      tier: 1,
      windows: [
        { window: '24h', limitUsd: 10_000, usedUsd: 0, remainingUsd: 10_000 },
        { window: '7d', limitUsd: 20_000, usedUsd: 0, remainingUsd: 20_000 },
        { window: '30d', limitUsd: 50_000, usedUsd: 0, remainingUsd: 50_000 },
      ],
    });
  });

  it('needs a session, and refuses another customer’s id (403) without showing their figures', async () => {
    const ada = await customer();
    const bob = await customer();
    expect((await buy(ada, 500)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/limits' })).statusCode).toBe(401);
    const snooping = await limitsOf(bob, `?userId=${ada.userId}`);
    expect(snooping.statusCode).toBe(403);
    expect(snooping.body).not.toContain('500');
    expect((await limitsOf(ada, `?userId=${ada.userId}`)).statusCode).toBe(200);
    expect((await windows(bob))['24h']?.usedUsd).toBe(0);
    expect((await windows(ada))['24h']?.usedUsd).toBe(500);
    expect((await limitsOf(ada, '?tier=2')).statusCode).toBe(400);
  });

  it('counts buys and sells together, and leaves out expired, cancelled and older orders', async () => {
    const ada = await customer();
    await saveBank(t, ada);
    await saveZelle(t, ada, 'ada.limits.zelle@example.com');
    await fileW9(t, ada);
    expect((await buy(ada, 1_000)).statusCode).toBe(200);
    const sell = await sellOrder(t, ada, 0.01, 'zelle');
    expect((await save(ada, sell.payload)).statusCode).toBe(200);
    await pastOrder(ada, 2_000, 3); // in the 7 and 30 days
    await pastOrder(ada, 4_000, 20); // in the 30 days only
    await pastOrder(ada, 8_000, 31); // too old
    await pastOrder(ada, 9_000, 1, 'expired');
    await pastOrder(ada, 9_000, 1, 'cancelled');
    const today = 1_000 + sell.payload.value;
    const seen = await windows(ada);
    expect(seen['24h']?.usedUsd).toBeCloseTo(today, 2);
    expect(seen['7d']?.usedUsd).toBeCloseTo(today + 2_000, 2);
    expect(seen['30d']?.usedUsd).toBeCloseTo(today + 6_000, 2);
    expect(seen['30d']?.remainingUsd).toBeCloseTo(50_000 - today - 6_000, 2);
  });
});

describe('order/save within the limits', () => {
  it('walks up to the 24-hour limit in steps, refuses the order that crosses it, then takes what is left', async () => {
    const ada = await customer();
    expect((await buy(ada, 4_000)).statusCode).toBe(200);
    expect((await buy(ada, 4_000.5)).statusCode).toBe(200);
    const over = await buy(ada, 2_500);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(
      'This order is over your 24-hour limit. You can trade up to $1,999.50 more today.',
    );
    expect((await buy(ada, 1_999.5)).statusCode).toBe(200);
    expect((await windows(ada))['24h']).toMatchObject({ usedUsd: 10_000, remainingUsd: 0 });
    const none = await buy(ada, 20);
    expect(none.json().message).toBe(
      'This order is over your 24-hour limit. You can trade up to $0.00 more today.',
    );
  });

  it('names the 7-day window when the week is what is full', async () => {
    const ada = await customer();
    await pastOrder(ada, 9_000, 2);
    await pastOrder(ada, 9_000, 4);
    const over = await buy(ada, 2_500);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(
      'This order is over your 7-day limit. You can trade up to $2,000.00 more this week.',
    );
    expect((await buy(ada, 2_000)).statusCode).toBe(200);
  });

  it('names the 30-day window when the month is what is full', async () => {
    const ada = await customer();
    for (const daysAgo of [8, 12, 16, 20, 24]) await pastOrder(ada, 9_500, daysAgo);
    const over = await buy(ada, 3_000);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toBe(
      'This order is over your 30-day limit. You can trade up to $2,500.00 more this month.',
    );
  });

  it('checks the spec’s ordered checks and the maximum order first', async () => {
    const unverified = await registerCustomer(t, 'limits.unverified@example.com');
    const first = await save(unverified, await buyOrderPayload(t, unverified, 100));
    expect(first.json().message).toBe('Upload your KYC');
    const ada = await customer();
    await pastOrder(ada, 9_999, 0);
    const tooBig = await buy(ada, 10_000.01);
    expect(tooBig.json().message).toBe('Maximum limit is $10,000.00');
  });

  it('lets exactly one of several saves at once through when only one fits', async () => {
    const ada = await customer();
    await pastOrder(ada, 4_000, 0);
    const payloads = await Promise.all(
      [5_000.01, 5_000.02, 5_000.03, 5_000.04, 5_000.05].map((value) => buyOrderPayload(t, ada, value)),
    );
    const answers = await Promise.all(payloads.map((payload) => save(ada, payload)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400, 400, 400, 400]);
    for (const answer of answers.filter((a) => a.statusCode === 400)) {
      expect(answer.json().message).toMatch(/^This order is over your 24-hour limit\./);
    }
    const [row] = await t.database.db
      .select({ total: sql<string>`sum(${orders.valueCents})` })
      .from(orders)
      .where(eq(orders.userId, ada.userId));
    expect(BigInt(row!.total)).toBeLessThanOrEqual(1_000_000n);
  });

  it('counts a re-quoted order once, at its new value', async () => {
    const ada = await customer();
    const first = (await buy(ada, 6_000)).json().order._id as string;
    const requote = (valueUsd: number) =>
      buyOrderPayload(t, ada, valueUsd).then((payload) =>
        t.request({
          method: 'POST',
          url: '/api/order/update',
          headers: ada.auth,
          payload: { ...payload, _id: first },
        }),
      );
    expect((await requote(9_000)).statusCode).toBe(200);
    const over = await requote(10_000);
    expect(over.statusCode).toBe(200);
    expect((await buy(ada, 100)).json().message).toMatch(/You can trade up to \$0\.00 more today\.$/);
  });
});

describe('an over-paid sell (docs/design.md)', () => {
  it('is flagged over_limit and held when the extra takes the customer past a window', async () => {
    const ada = await customer();
    await saveBank(t, ada);
    await saveZelle(t, ada, 'ada.overpays@example.com');
    await fileW9(t, ada);
    await pastOrder(ada, 9_000, 0);
    const { payload } = await sellOrder(t, ada, 0.005, 'zelle');
    expect(payload.value).toBeLessThan(1_000);
    const saved = await save(ada, payload);
    expect(saved.statusCode).toBe(200);
    const order = saved.json().order as { _id: string; walletAddress: { address: string } };
    // Four times the amount ordered arrives: still far under max_order_size, but over the day's limit.
    const sent = await t.request({
      method: 'POST',
      url: '/api/dev/chain/send',
      payload: { address: order.walletAddress.address, amount: 0.02 },
    });
    expect(sent.statusCode).toBe(200);
    await t.app.depositWatcher.pollOnce();
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row).toMatchObject({ status: 'processing', flag: 'over_limit', receivedSats: 2_000_000n });
    expect(row?.flagNote).toContain("over the customer's 24-hour limit of $10,000.00: held");
  });
});

describe('tiers', () => {
  it('an admin moves a customer to tier 2 (audited) and their limits follow at once', async () => {
    const ada = await customer();
    await pastOrder(ada, 9_000, 0);
    expect((await buy(ada, 5_000)).statusCode).toBe(400);
    const moved = await t.request({
      method: 'POST',
      url: `/api/admin/users/${ada.userId}/tier`,
      headers: admin.auth,
      payload: { tier: 2, reason: 'enhanced due diligence done' },
    });
    expect(moved.statusCode).toBe(200);
    expect((await limitsOf(ada)).json()).toMatchObject({
      tier: 2,
      windows: [
        { window: '24h', limitUsd: 50_000, usedUsd: 9_000, remainingUsd: 41_000 },
        { window: '7d', limitUsd: 100_000 },
        { window: '30d', limitUsd: 250_000 },
      ],
    });
    expect((await buy(ada, 5_000)).statusCode).toBe(200);
    const [entry] = await t.database.db
      .select()
      .from(adminActions)
      .where(eq(adminActions.targetId, ada.userId));
    expect(entry).toMatchObject({
      action: 'user.set_tier',
      adminEmail: 'admin@offzero.local',
      before: { limitTier: 1 },
      after: { limitTier: 2 },
      note: 'enhanced due diligence done',
    });
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users/${ada.userId}`,
      headers: admin.auth,
    });
    expect(detail.json().user.limitTier).toBe(2);
    const again = await t.request({
      method: 'POST',
      url: `/api/admin/users/${ada.userId}/tier`,
      headers: admin.auth,
      payload: { tier: 2, reason: 'once more' },
    });
    expect(again.statusCode).toBe(409);
  });

  it('refuses a customer changing a tier, an unknown customer, a bad tier and a missing reason', async () => {
    const ada = await customer();
    const move = (who: RegisteredCustomer, userId: string, payload: object) =>
      t.request({ method: 'POST', url: `/api/admin/users/${userId}/tier`, headers: who.auth, payload });
    expect((await move(ada, ada.userId, { tier: 2, reason: 'I deserve it' })).statusCode).toBe(403);
    const unknown = await move(admin, '8d3c9f0e-59a1-4f4b-9a55-3f1f7f2b4c11', { tier: 2, reason: 'checked' });
    expect(unknown.statusCode).toBe(404);
    expect((await move(admin, 'not-an-id', { tier: 2, reason: 'checked' })).statusCode).toBe(404);
    for (const payload of [
      { tier: 3, reason: 'checked' },
      { tier: '2', reason: 'checked' },
      { tier: 2 },
      { tier: 2, reason: 'ok' },
      { tier: 2, reason: 'checked', limitUsd: 1e9 },
    ]) {
      expect((await move(admin, ada.userId, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    }
    const [row] = await t.database.db.select().from(users).where(eq(users.id, ada.userId));
    expect(row?.limitTier).toBe(1);
  });
});

describe('the limits settings group', () => {
  const current = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin.auth })).json().settings;
  const put = (payload: object) =>
    t.request({ method: 'PUT', url: '/api/admin/settings', headers: admin.auth, payload });

  it('refuses zero, negative, too precise, inverted and non-numeric limits, naming the field', async () => {
    const base = await current();
    expect(base.limits).toEqual({
      tier1: { day: 10_000, week: 20_000, month: 50_000 },
      tier2: { day: 50_000, week: 100_000, month: 250_000 },
    });
    const withTier1 = (tier1: object) => ({ ...base, limits: { ...base.limits, tier1 } });
    const cases: [object, string, string][] = [
      [withTier1({ day: 0, week: 20_000, month: 50_000 }), 'limits.tier1.day', 'Enter an amount above zero.'],
      [
        withTier1({ day: -5, week: 20_000, month: 50_000 }),
        'limits.tier1.day',
        'Amounts cannot be negative.',
      ],
      [
        withTier1({ day: 30_000, week: 20_000, month: 50_000 }),
        'limits.tier1.day',
        'The 24-hour limit cannot be above the 7-day limit.',
      ],
      [
        withTier1({ day: 10_000, week: 60_000, month: 50_000 }),
        'limits.tier1.week',
        'The 7-day limit cannot be above the 30-day limit.',
      ],
    ];
    for (const [payload, field, message] of cases) {
      const response = await put(payload);
      expect(response.statusCode, field).toBe(400);
      expect(response.json().errors?.[field]).toBe(message);
    }
    for (const payload of [
      withTier1({ day: 10_000.001, week: 20_000, month: 50_000 }),
      withTier1({ day: '10000', week: 20_000, month: 50_000 }),
      withTier1({ day: 10_000, week: 20_000 }),
      { ...base, limits: { ...base.limits, tier3: base.limits.tier1 } },
    ]) {
      expect((await put(payload)).statusCode).toBe(400);
    }
    expect(await current()).toEqual(base);
  });

  it('saves new limits (audited), which the next order and GET /api/limits use; customers never see them', async () => {
    const base = await current();
    const saved = await put({
      ...base,
      limits: { ...base.limits, tier1: { day: 1_000, week: 1_500, month: 2_000 } },
    });
    expect(saved.statusCode).toBe(200);
    try {
      const ada = await customer();
      expect((await windows(ada))['24h']?.limitUsd).toBe(1_000);
      expect((await buy(ada, 1_000.01)).json().message).toBe(
        'This order is over your 24-hour limit. You can trade up to $1,000.00 more today.',
      );
      const seenByCustomer = await t.app.inject({
        method: 'GET',
        url: '/api/admin/settings',
        headers: ada.auth,
      });
      expect(seenByCustomer.json().settings.limits).toBeUndefined();
      const [entry] = (
        await t.app.inject({
          method: 'GET',
          url: '/api/admin/audit?action=settings',
          headers: admin.auth,
        })
      ).json().entries;
      expect(entry.before.limits.tier1.day).toBe(10_000);
      expect(entry.after.limits.tier1.day).toBe(1_000);
    } finally {
      expect((await put(base)).statusCode).toBe(200);
    }
  });

  it('keeps the limits as they are when an editor without the group saves', async () => {
    const base = await current();
    const { limits: _limits, ...withoutLimits } = base;
    expect((await put(withoutLimits)).statusCode).toBe(200);
    expect((await current()).limits).toEqual(base.limits);
  });
});

describe('Travel Rule record (orders of $3,000 or more)', () => {
  const records = (orderId: string) =>
    t.database.db.select().from(travelRuleRecords).where(eq(travelRuleRecords.orderId, orderId));

  it('needs the wallet-ownership answer from $3,000, and neither asks nor keeps it below', async () => {
    const ada = await customer();
    const missing = await buy(ada, 3_000, { walletOwnership: undefined });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('Tell us whether this wallet is your own.');
    const below = await buy(ada, 2_999.99);
    expect(below.statusCode).toBe(200);
    expect(await records(below.json().order._id)).toEqual([]);
  });

  it('refuses a malformed answer: no choice, an empty institution, control characters, extra fields', async () => {
    const ada = await customer();
    const cases: [unknown, RegExp][] = [
      [{}, /Tell us whether this wallet is your own\./],
      [{ own: 'yes' }, /Tell us whether this wallet is your own\./],
      [{ own: false }, /Name the exchange or institution that holds this wallet\./],
      [{ own: false, institution: '   ' }, /Name the exchange or institution that holds this wallet\./],
      [{ own: false, institution: 'Coin\u0000base' }, /control characters/],
      [{ own: false, institution: 'Kra\u202Eken' }, /control characters/],
      [{ own: false, institution: 'x'.repeat(201) }, /at most 200 characters/],
      [{ own: true, institution: 'Kraken' }, /./],
    ];
    for (const [walletOwnership, message] of cases) {
      const response = await buy(ada, 3_100, { walletOwnership });
      expect(response.statusCode, JSON.stringify(walletOwnership)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    const [row] = await t.database.db
      .select({ count: sql<number>`count(*)::int` })
      .from(orders)
      .where(eq(orders.userId, ada.userId));
    expect(row?.count).toBe(0);
  });

  it('keeps the customer, the order and the answer with a buy', async () => {
    const ada = await customer();
    // What a verification with the real provider would have recorded.
    await t.database.db
      .update(kycRecords)
      .set({ legalName: 'Ada King Lovelace', country: 'US' })
      .where(eq(kycRecords.userId, ada.userId));
    const saved = await buy(ada, 3_500, { walletOwnership: { own: false, institution: '  Kraken ' } });
    expect(saved.statusCode).toBe(200);
    const order = saved.json().order;
    const [record] = await records(order._id);
    expect(record).toMatchObject({
      userId: ada.userId,
      customerName: 'Ada King Lovelace',
      customerAddress: 'US',
      valueCents: 350_000n,
      amountSats: btcNumberToSats(order.amount),
      walletAddress: 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      ownWallet: false,
      institution: 'Kraken',
      paymentIdentifier: null,
    });
    expect(record?.orderCreatedAt.toISOString()).toBe(order.createdAt);
    const paid = await t.request({
      method: 'POST',
      url: '/api/order/update',
      headers: ada.auth,
      payload: { _id: order._id, payment: { method: 'zelle' }, status: 'processing', bankTxn: 'ZL-778' },
    });
    expect(paid.statusCode).toBe(200);
    expect((await records(order._id))[0]?.paymentIdentifier).toBe('zelle ZL-778');
  });

  it('names the PayPal capture that paid a buy', async () => {
    const ada = await customer();
    const saved = await buy(ada, 3_200);
    expect(saved.statusCode, saved.body).toBe(200);
    const orderId = saved.json().order._id as string;
    const created = await t.request({
      method: 'POST',
      url: '/api/payments/paypal/orders',
      headers: ada.auth,
      payload: { orderId },
    });
    const paypalOrderId = created.json().id as string;
    await t.request({
      method: 'POST',
      url: `/api/dev/paypal/orders/${paypalOrderId}/approve`,
      headers: ada.auth,
    });
    const captured = await t.request({
      method: 'POST',
      url: `/api/payments/paypal/orders/${paypalOrderId}/capture`,
      headers: ada.auth,
      payload: { orderId },
    });
    expect(captured.statusCode, captured.body).toBe(200);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order?.paypalCaptureId).toMatch(/^DEMOCAP-/);
    expect((await records(orderId))[0]?.paymentIdentifier).toBe(`paypal ${order?.paypalCaptureId}`);
  });

  it('keeps it with a sell, naming the payout account and the deposit address', async () => {
    const ada = await customer();
    await saveBank(t, ada);
    await saveZelle(t, ada, 'ada.travel@example.com');
    await fileW9(t, ada);
    const { buyPrice } = await currentPrice(t);
    const btc = Math.ceil((3_400 / buyPrice) * 100_000) / 100_000; // whole 1,000 satoshis
    const { payload } = await sellOrder(t, ada, btc, 'zelle');
    expect(payload.value).toBeGreaterThanOrEqual(3_000);
    const missing = await save(ada, { ...payload, walletOwnership: undefined });
    expect(missing.json().message).toBe('Tell us whether this wallet is your own.');
    const saved = await save(ada, { ...payload, walletOwnership: { own: true } });
    expect(saved.statusCode).toBe(200);
    const order = saved.json().order;
    const [record] = await records(order._id);
    expect(record).toMatchObject({
      ownWallet: true,
      institution: null,
      walletAddress: order.walletAddress.address,
      paymentIdentifier: 'zelle ada.travel@example.com',
      valueCents: usdNumberToCents(payload.value),
    });
  });

  it('asks again when a pending buy is re-quoted to $3,000 or more, and keeps one record per order', async () => {
    const ada = await customer();
    const id = (await buy(ada, 100)).json().order._id as string;
    const requote = async (valueUsd: number, overrides: Record<string, unknown> = {}) =>
      t.request({
        method: 'POST',
        url: '/api/order/update',
        headers: ada.auth,
        payload: { ...(await buyOrderPayload(t, ada, valueUsd, overrides)), _id: id },
      });
    const missing = await requote(3_200, { walletOwnership: undefined });
    expect(missing.json().message).toBe('Tell us whether this wallet is your own.');
    expect((await requote(3_200)).statusCode).toBe(200);
    expect(
      (await requote(3_300, { walletOwnership: { own: false, institution: 'Coinbase' } })).statusCode,
    ).toBe(200);
    const kept = await records(id);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ valueCents: 330_000n, ownWallet: false, institution: 'Coinbase' });
  });
});
