import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockedQuote } from '@offzero/shared/api/quotes';
import { btcNumberToSats } from '@offzero/shared/money/money';
import { globalSettings } from '../db/schema';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { saveBank, TEST_BANK } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

// A buy quote names the routing-fee budget of a Lightning payout before anything is paid
// (docs/design.md, "Lightning"): 0.5 % of the satoshis, at least 10, only when Lightning can pay it.
let t: TestApp;
let ada: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp();
  ada = await registerVerifiedCustomer(t, 'ada.lightning.quote@example.com');
  await saveBank(t, ada, TEST_BANK);
});
afterAll(async () => t.close());

async function quote(payload: object): Promise<LockedQuote> {
  const response = await t.request({ method: 'POST', url: '/api/quotes', headers: ada.auth, payload });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ quote: LockedQuote }>().quote;
}

const expectedBudget = (amountBtc: number) => {
  const sats = btcNumberToSats(amountBtc);
  const share = (sats * 5n + 999n) / 1000n;
  return Number(share > 10n ? share : 10n);
};

describe('the Lightning routing-fee budget on a buy quote', () => {
  it('is 0.5 % of the satoshis, rounded up (at least 10 sats)', async () => {
    const large = await quote({ type: 'buy', value: 500 });
    expect(large.lightningFeeBudgetSats).toBe(expectedBudget(large.amount));
    expect(large.lightningFeeBudgetSats).toBeGreaterThan(10);
    const small = await quote({ type: 'buy', value: 20 });
    expect(small.lightningFeeBudgetSats).toBe(expectedBudget(small.amount));
  });

  it('is absent when Lightning is off or the buy is above the payout cap, and on a sell', async () => {
    const db = t.database.db;
    try {
      await db.update(globalSettings).set({ lightningActive: false });
      expect((await quote({ type: 'buy', value: 100 })).lightningFeeBudgetSats).toBeUndefined();
      await db.update(globalSettings).set({ lightningActive: true, lightningMaxPayoutSats: 1_000n });
      expect((await quote({ type: 'buy', value: 100 })).lightningFeeBudgetSats).toBeUndefined();
    } finally {
      await db.update(globalSettings).set({ lightningActive: true, lightningMaxPayoutSats: 5_000_000n });
    }
    const sell = await quote({ type: 'sell', amount: 0.001, method: 'ach' });
    expect(sell.lightningFeeBudgetSats).toBeUndefined();
  });

  it('refuses a buy quote of a bad amount with words, never a budget', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/quotes',
      headers: ada.auth,
      payload: { type: 'buy', value: 'lots' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<{ message: string }>().message).toBeTruthy();
  });
});
