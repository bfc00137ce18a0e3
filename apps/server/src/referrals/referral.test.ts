import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referralRewards } from '../db/schema';
import { registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
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
