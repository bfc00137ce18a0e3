import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LockedQuote } from '@offzero/shared/api/quotes';
import { QUOTE_MESSAGES } from '@offzero/shared/api/quotes';
import {
  btcNumberToSats,
  centsToUsdNumber,
  satsToBtcNumber,
  usdNumberToCents,
} from '@offzero/shared/money/money';
import { quoteBuyFromUsd, quoteSellFromBtc } from '@offzero/shared/quotes/quote';
import { globalSettings, orders, priceSnapshots, quotes } from '../db/schema';
import {
  registerCustomer,
  registerVerifiedCustomer,
  type RegisteredCustomer,
} from '../test/accounts-helpers';
import { TEST_WALLET } from '../test/buy-helpers';
import { DEMO_BANK_CHARGES_CENTS, DEMO_FEE_BPS, saveBank, saveZelle, TEST_BANK } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp();
  ada = await registerVerifiedCustomer(t, 'ada.quotes@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.quotes@example.com');
  await saveBank(t, ada, TEST_BANK);
  await saveZelle(t, ada, 'ada.quotes@example.com');
});
afterAll(async () => t.close());

const lock = (who: RegisteredCustomer, payload: unknown, headers: Record<string, string> = {}) =>
  t.request({
    method: 'POST',
    url: '/api/quotes',
    headers: { ...who.auth, ...headers },
    payload: payload as object,
  });

async function lockedQuote(who: RegisteredCustomer, payload: unknown): Promise<LockedQuote> {
  const response = await lock(who, payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ quote: LockedQuote }>().quote;
}

const save = (who: RegisteredCustomer, payload: object) =>
  t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload });

/** The order body the web app sends for a locked buy quote: exactly the quote's figures. */
function buyBody(who: RegisteredCustomer, quote: LockedQuote, overrides: Record<string, unknown> = {}) {
  return {
    userId: who.userId,
    pair: 'BTC-USD',
    type: 'buy',
    amount: quote.amount,
    value: quote.value,
    price: quote.price,
    platformFee: quote.platformFee,
    networkFee: quote.networkFee,
    expired: 900,
    walletAddress: TEST_WALLET,
    quoteId: quote.id,
    ...overrides,
  };
}

function sellBody(who: RegisteredCustomer, quote: LockedQuote, overrides: Record<string, unknown> = {}) {
  return {
    userId: who.userId,
    pair: 'BTC-USD',
    type: 'sell',
    amount: quote.amount,
    value: quote.value,
    price: quote.price,
    platformFee: quote.platformFee,
    bankFee: quote.bankFee,
    networkFee: 0,
    expired: 1200,
    walletAddress: '',
    bankAccount: { method: quote.method },
    quoteId: quote.id,
    ...overrides,
  };
}

async function newestPrice() {
  const [row] = await t.database.db
    .select()
    .from(priceSnapshots)
    .orderBy(desc(priceSnapshots.fetchedAt))
    .limit(1);
  if (!row) throw new Error('no price served yet');
  return row;
}

describe('POST /api/quotes', () => {
  it('locks a buy at the server price for the order session timeout, with its all-in price', async () => {
    const before = Date.now();
    const quote = await lockedQuote(ada, { type: 'buy', value: 250 });
    const price = await newestPrice();
    const expected = quoteBuyFromUsd({
      valueCents: 25_000n,
      sellPriceCents: price.sellPriceCents,
      feeBps: DEMO_FEE_BPS,
      networkFeeSats: price.networkFeeSats,
    })!;
    expect(quote).toMatchObject({
      type: 'buy',
      value: 250,
      price: centsToUsdNumber(price.sellPriceCents),
      amount: satsToBtcNumber(expected.amountSats),
      platformFee: centsToUsdNumber(expected.platformFeeCents),
      networkFee: centsToUsdNumber(expected.networkFeeCents),
      midMarketPrice: centsToUsdNumber((price.sellPriceCents + price.buyPriceCents) / 2n),
    });
    expect(quote.bankFee).toBeUndefined();
    // The spread is what the rate costs against the mid-market price, on this amount.
    const gap = centsToUsdNumber(price.sellPriceCents - price.buyPriceCents) / 2;
    expect(quote.spread).toBeGreaterThan(0);
    expect(Math.abs(quote.spread - gap * quote.amount)).toBeLessThanOrEqual(0.01);
    // Locked for the demo's 900 seconds.
    const lockedFor = Date.parse(quote.expiresAt) - before;
    expect(lockedFor).toBeGreaterThan(899_000);
    expect(lockedFor).toBeLessThan(905_000);
    const [stored] = await t.database.db.select().from(quotes).where(eq(quotes.id, quote.id));
    expect(stored).toMatchObject({ userId: ada.userId, usedAt: null, orderId: null });
  });

  it('locks a sell with the chosen method’s bank charges', async () => {
    const quote = await lockedQuote(ada, { type: 'sell', amount: 0.01, method: 'ach' });
    const price = await newestPrice();
    const expected = quoteSellFromBtc({
      amountSats: 1_000_000n,
      buyPriceCents: price.buyPriceCents,
      feeBps: DEMO_FEE_BPS,
      bankChargesCents: DEMO_BANK_CHARGES_CENTS.ach,
    })!;
    expect(quote).toMatchObject({
      type: 'sell',
      method: 'ach',
      amount: 0.01,
      price: centsToUsdNumber(price.buyPriceCents),
      value: centsToUsdNumber(expected.valueCents),
      platformFee: centsToUsdNumber(expected.platformFeeCents),
      bankFee: 1,
    });
    expect(quote.networkFee).toBeUndefined();
  });

  it('refuses malformed bodies with a 400 and a message', async () => {
    for (const payload of [
      {},
      { type: 'swap', value: 10 },
      { type: 'buy' },
      { type: 'buy', value: '100' },
      { type: 'buy', value: 100, extra: 1 },
      { type: 'sell', amount: 0.01 },
      { type: 'sell', amount: 0.01, method: 'paypal' },
    ]) {
      const response = await lock(ada, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<{ message: string }>().message).toBeTruthy();
    }
    for (const [payload, message] of [
      [{ type: 'buy', value: 0 }, 'Enter an amount greater than zero.'],
      [{ type: 'buy', value: 10.001 }, undefined],
      [{ type: 'buy', value: 5 }, undefined],
      [{ type: 'buy', value: 20_000 }, undefined],
      [{ type: 'sell', amount: 0.000000001, method: 'zelle' }, undefined],
      [{ type: 'sell', amount: 0.00000001, method: 'wire' }, undefined],
    ] as const) {
      const response = await lock(ada, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      if (message) expect(response.json<{ message: string }>().message).toBe(message);
    }
    // A sell that would leave nothing names the smallest amount that works for that method.
    const deadEnd = await lock(ada, { type: 'sell', amount: 0.00000001, method: 'wire' });
    expect(deadEnd.json<{ message: string }>().message).toMatch(/^For a wire payout, sell at least/);
  });

  it('runs the customer checks and needs a session', async () => {
    const unverified = await registerCustomer(t, 'carol.quotes@example.com');
    const refused = await lock(unverified, { type: 'buy', value: 100 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json<{ message: string }>().message).toBe('Upload your KYC');
    // Bob has no bank account: no sell quote.
    const noBank = await lock(bob, { type: 'sell', amount: 0.01, method: 'zelle' });
    expect(noBank.statusCode).toBe(403);
    expect(noBank.json<{ message: string }>().message).toBe('Add a bank account');
    const anonymous = await t.request({
      method: 'POST',
      url: '/api/quotes',
      payload: { type: 'buy', value: 100 },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers the same quote again for the same Idempotency-Key', async () => {
    const first = await lock(ada, { type: 'buy', value: 120 }, { 'idempotency-key': 'quote-key-1' });
    const again = await lock(ada, { type: 'buy', value: 120 }, { 'idempotency-key': 'quote-key-1' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
  });
});

describe('POST /api/order/save with a quoteId', () => {
  it('saves a buy at exactly the quote’s figures, whatever the price did since, and uses the quote', async () => {
    const quote = await lockedQuote(ada, { type: 'buy', value: 300 });
    // The market moves on: a newer, different price is served before the customer pays.
    const price = await newestPrice();
    await t.database.db.insert(priceSnapshots).values({
      sellPriceCents: price.sellPriceCents + 123_45n,
      buyPriceCents: price.buyPriceCents + 123_45n,
      networkFeeSats: price.networkFeeSats,
      source: 'demo',
      fetchedAt: new Date(),
    });
    const response = await save(ada, buyBody(ada, quote));
    expect(response.statusCode, response.body).toBe(200);
    const order = response.json<{ order: Record<string, unknown> }>().order;
    expect(order).toMatchObject({
      amount: quote.amount,
      value: quote.value,
      price: quote.price,
      platformFee: quote.platformFee,
      networkFee: quote.networkFee,
      status: 'pending',
      // The order's quote lock is the quote's: the countdown the customer saw.
      expiresAt: quote.expiresAt,
    });
    const [stored] = await t.database.db.select().from(quotes).where(eq(quotes.id, quote.id));
    expect(stored?.orderId).toBe(order._id);
    expect(stored?.usedAt).toBeInstanceOf(Date);
  });

  it('saves a sell at the quote’s figures with the quoted payout method', async () => {
    const quote = await lockedQuote(ada, { type: 'sell', amount: 0.005, method: 'zelle' });
    const response = await save(ada, sellBody(ada, quote));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ order: Record<string, unknown> }>().order).toMatchObject({
      type: 'sell',
      value: quote.value,
      bankFee: quote.bankFee,
      payment: { method: 'zelle' },
    });
    // Another method than the quoted one is refused.
    const other = await lockedQuote(ada, { type: 'sell', amount: 0.005, method: 'zelle' });
    const refused = await save(ada, sellBody(ada, other, { bankAccount: { method: 'ach' } }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toBe(QUOTE_MESSAGES.methodDiffers);
  });

  it('answers 404 for another customer’s quote, and for an id that is no quote', async () => {
    const adas = await lockedQuote(ada, { type: 'buy', value: 100 });
    const stolen = await save(bob, buyBody(bob, adas));
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json<{ message: string }>().message).toBe(QUOTE_MESSAGES.notFound);
    for (const quoteId of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const missing = await save(ada, buyBody(ada, adas, { quoteId }));
      expect(missing.statusCode).toBe(404);
    }
    // Nothing was written for Bob, and Ada's quote is still unused.
    expect(await t.database.db.select().from(orders).where(eq(orders.userId, bob.userId))).toHaveLength(0);
    const [stored] = await t.database.db.select().from(quotes).where(eq(quotes.id, adas.id));
    expect(stored?.usedAt).toBeNull();
  });

  it('refuses figures that differ from the quote’s (tampering), and a quote of the other kind', async () => {
    const quote = await lockedQuote(ada, { type: 'buy', value: 200 });
    for (const overrides of [
      { amount: Number((quote.amount + 0.0001).toFixed(8)) },
      { value: Number((quote.value + 0.01).toFixed(2)) },
      { price: quote.price - 1 },
      { platformFee: 0 },
      { networkFee: 0 },
    ]) {
      const response = await save(ada, buyBody(ada, quote, overrides));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(QUOTE_MESSAGES.figuresDiffer);
    }
    const asSell = await save(ada, {
      ...buyBody(ada, quote),
      type: 'sell',
      bankAccount: { method: 'zelle' },
    });
    expect(asSell.statusCode).toBe(400);
    expect(asSell.json<{ message: string }>().message).toBe(QUOTE_MESSAGES.typeDiffers);
    // Still usable as it was quoted.
    expect((await save(ada, buyBody(ada, quote))).statusCode).toBe(200);
  });

  it('refuses an expired quote with a 410 that tells the customer to get a new quote', async () => {
    const quote = await lockedQuote(ada, { type: 'buy', value: 150 });
    await t.database.db
      .update(quotes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(quotes.id, quote.id));
    const response = await save(ada, buyBody(ada, quote));
    expect(response.statusCode).toBe(410);
    expect(response.json()).toMatchObject({ code: 'QUOTE_EXPIRED', message: QUOTE_MESSAGES.expired });
  });

  it('uses a quote once: a second order with it is refused (409)', async () => {
    const quote = await lockedQuote(ada, { type: 'buy', value: 180 });
    expect((await save(ada, buyBody(ada, quote))).statusCode).toBe(200);
    // Another order (another address) against the same quote: the quote is spent.
    const other = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx';
    const reused = await save(ada, buyBody(ada, quote, { walletAddress: other }));
    expect(reused.statusCode).toBe(409);
    expect(reused.json<{ message: string }>().message).toBe(QUOTE_MESSAGES.used);
    // Long after, even the same order again is refused, not answered.
    await t.database.db
      .update(quotes)
      .set({ usedAt: new Date(Date.now() - 60_000) })
      .where(eq(quotes.id, quote.id));
    expect((await save(ada, buyBody(ada, quote))).statusCode).toBe(409);
  });

  it('answers the first order to a double submission of the same quote', async () => {
    const quote = await lockedQuote(ada, { type: 'buy', value: 190 });
    const [first, second] = await Promise.all([
      save(ada, buyBody(ada, quote)),
      save(ada, buyBody(ada, quote)),
    ]);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json<{ order: { _id: string } }>().order._id).toBe(
      first.json<{ order: { _id: string } }>().order._id,
    );
  });

  it('re-quotes a pending buy against a new locked quote', async () => {
    const quote = await lockedQuote(ada, { type: 'buy', value: 210 });
    const saved = await save(ada, buyBody(ada, quote));
    const orderId = saved.json<{ order: { _id: string } }>().order._id;
    const fresh = await lockedQuote(ada, { type: 'buy', value: 220 });
    const requoted = await t.request({
      method: 'POST',
      url: '/api/order/update',
      headers: ada.auth,
      payload: { ...buyBody(ada, fresh), _id: orderId },
    });
    expect(requoted.statusCode, requoted.body).toBe(200);
    expect(requoted.json<{ order: { value: number; expiresAt: string } }>().order).toMatchObject({
      value: 220,
      expiresAt: fresh.expiresAt,
    });
  });

  it('without a quoteId, still prices from a served price as before', async () => {
    const price = await newestPrice();
    const quote = quoteBuyFromUsd({
      valueCents: usdNumberToCents(100),
      sellPriceCents: price.sellPriceCents,
      feeBps: DEMO_FEE_BPS,
      networkFeeSats: price.networkFeeSats,
    })!;
    const response = await save(ada, {
      userId: ada.userId,
      pair: 'BTC-USD',
      type: 'buy',
      amount: satsToBtcNumber(quote.amountSats),
      value: 100,
      price: centsToUsdNumber(price.sellPriceCents),
      platformFee: centsToUsdNumber(quote.platformFeeCents),
      networkFee: centsToUsdNumber(quote.networkFeeCents),
      walletAddress: TEST_WALLET,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(btcNumberToSats(response.json<{ order: { amount: number } }>().order.amount)).toBe(
      quote.amountSats,
    );
  });
});

describe('arrival timing in the settings', () => {
  it('is public, with the defaults, and the operator’s edit is what customers read', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/admin/settings' });
    expect(response.json<{ settings: { arrival: unknown } }>().settings.arrival).toEqual({
      paypal: 'Bitcoin is sent after the payment clears.',
      zelle: 'Within hours of receipt.',
      ach: 'After the transfer settles, 1–3 business days.',
      wire: 'Same or next business day.',
      instant: 'Arrives in seconds, any day and hour.',
    });
    await t.database.db.update(globalSettings).set({ arrivalWire: 'Next business day.' });
    const edited = await t.app.inject({ method: 'GET', url: '/api/admin/settings' });
    expect(edited.json<{ settings: { arrival: { wire: string } } }>().settings.arrival.wire).toBe(
      'Next business day.',
    );
  });
});
