import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referralRewards, users } from '../db/schema';
import { latestCode, registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let referrer: RegisteredCustomer;
let referred: RegisteredCustomer;
beforeAll(async () => {
  t = await createTestApp();
  referrer = await registerCustomer(t, 'referrer.history@example.com');
  await t.request({
    method: 'POST',
    url: '/api/user/settings/save',
    headers: referrer.auth,
    payload: { userId: referrer.userId, referralCode: 'HistoryCode_0001' },
  });
  referred = await registerCustomer(t, 'referred.history@example.com', { referralCode: 'HistoryCode_0001' });
});
afterAll(async () => t.close());

const get = (who: RegisteredCustomer, url: string) => t.app.inject({ method: 'GET', url, headers: who.auth });

describe('referral rewards', () => {
  it('answers zero and an empty history before any reward', async () => {
    expect((await get(referrer, `/api/referral/totalrewards?referred_id=${referrer.userId}`)).json()).toEqual(
      { sumOfRewards: 0 },
    );
    expect((await get(referrer, `/api/referral/history?referred_id=${referrer.userId}`)).json()).toEqual({
      referrals: [],
    });
  });

  it('sums rewards to the cent and lists them newest first with the trading customer', async () => {
    const first = randomUUID();
    const second = randomUUID();
    await t.database.db.insert(referralRewards).values([
      {
        referrerUserId: referrer.userId,
        tradingUserId: referred.userId,
        orderId: first,
        platformFeeCents: 1_501n,
        rewardCents: 151n,
        createdAt: new Date('2026-01-01T10:00:00Z'),
      },
      {
        referrerUserId: referrer.userId,
        tradingUserId: referred.userId,
        orderId: second,
        platformFeeCents: 30_000n,
        rewardCents: 3_000n,
        createdAt: new Date('2026-02-01T10:00:00Z'),
      },
    ]);
    expect((await get(referrer, `/api/referral/totalrewards?referred_id=${referrer.userId}`)).json()).toEqual(
      { sumOfRewards: 31.51 },
    );
    const { referrals } = (
      await get(referrer, `/api/referral/history?referred_id=${referrer.userId}`)
    ).json();
    expect(referrals.map((r: { order_id: string }) => r.order_id)).toEqual([second, first]);
    expect(referrals[1]).toMatchObject({
      referrer_id: referred.userId,
      referred_id: referrer.userId,
      platform_fee: 15.01,
      reward_amount: 1.51,
      createdAt: '2026-01-01T10:00:00.000Z',
    });
  });

  it("refuses another customer's id (403) and shows the referred customer nothing of the referrer's", async () => {
    expect((await get(referred, `/api/referral/history?referred_id=${referrer.userId}`)).statusCode).toBe(
      403,
    );
    expect(
      (await get(referred, `/api/referral/totalrewards?referred_id=${referrer.userId}`)).statusCode,
    ).toBe(403);
    expect((await get(referred, `/api/referral/history?referred_id=${referred.userId}`)).json()).toEqual({
      referrals: [],
    });
  });

  it('refuses a second reward for the same order', async () => {
    const orderId = randomUUID();
    const reward = {
      referrerUserId: referrer.userId,
      tradingUserId: referred.userId,
      orderId,
      platformFeeCents: 100n,
      rewardCents: 10n,
    };
    await t.database.db.insert(referralRewards).values(reward);
    await expect(t.database.db.insert(referralRewards).values(reward)).rejects.toThrow();
  });
});

describe('referral codes are one code whatever their case', () => {
  const saveCode = (who: RegisteredCustomer, referralCode: string) =>
    t.request({
      method: 'POST',
      url: '/api/user/settings/save',
      headers: who.auth,
      payload: { userId: who.userId, referralCode },
    });
  const referrerOf = async (userId: string) =>
    (await t.database.db.select().from(users).where(eq(users.id, userId)))[0]?.referredByUserId;

  /** Registration step 2 with a referral code, answered as the customer sees it. */
  async function verifyEmailWithReferral(email: string, referralCode: string) {
    await t.request({ method: 'POST', url: '/api/verification/email/otp', payload: { email } });
    return t.request({
      method: 'POST',
      url: '/api/verification/verify/otp',
      payload: { email, code: await latestCode(t, email), referralCode },
    });
  }

  it("refuses another customer the same code in another case, even at the same moment, and credits the code's holder however it is typed", async () => {
    const copycat = await registerCustomer(t, 'copycat.referral@example.com');
    const taken = await saveCode(copycat, 'historycode_0001');
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('This referral code is already taken. Generate another one.');

    const retyped = await registerCustomer(t, 'retyped.referral@example.com', {
      referralCode: 'HISTORYCODE_0001',
    });
    expect(await referrerOf(retyped.userId)).toBe(referrer.userId);

    const other = await registerCustomer(t, 'other.referral@example.com');
    const claims = await Promise.all([
      saveCode(copycat, 'SameMoment_00001'),
      saveCode(other, 'samemoment_00001'),
    ]);
    expect(claims.map((claim) => claim.statusCode).sort()).toEqual([200, 409]);
  });

  it('never guesses between two customers whose codes differ only in case', async () => {
    // Saved before codes were told apart without case: each spelling still names its own holder.
    const upper = await registerCustomer(t, 'upper.legacy@example.com');
    const lower = await registerCustomer(t, 'lower.legacy@example.com');
    await t.database.db
      .update(users)
      .set({ referralCode: 'LegacyCode_00001' })
      .where(eq(users.id, upper.userId));
    await t.database.db
      .update(users)
      .set({ referralCode: 'legacycode_00001' })
      .where(eq(users.id, lower.userId));

    const byUpper = await registerCustomer(t, 'by.upper@example.com', { referralCode: 'LegacyCode_00001' });
    const byLower = await registerCustomer(t, 'by.lower@example.com', { referralCode: 'legacycode_00001' });
    expect(await referrerOf(byUpper.userId)).toBe(upper.userId);
    expect(await referrerOf(byLower.userId)).toBe(lower.userId);

    const ambiguous = await verifyEmailWithReferral('by.neither@example.com', 'LEGACYCODE_00001');
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json().message).toBe(
      'Type this referral code exactly as it was shared, with its capital letters.',
    );
  });
});
