import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  btcNumberToSats,
  centsToUsdNumber,
  satsToBtcNumber,
  usdNumberToCents,
} from '@offzero/shared/money/money';
import { quoteBuyFromUsd } from '@offzero/shared/quotes/quote';
import { orderEvents, orders, outboxMessages, priceSnapshots, userSettings } from '../db/schema';
import {
  registerCustomer,
  registerVerifiedCustomer,
  type RegisteredCustomer,
} from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { buyOrderPayload, TEST_WALLET as WALLET } from '../test/buy-helpers';
import { restrictCustomer } from '../users/customer-restriction.repository';
import { forgetCachedSessions } from '../auth/sessions';

let t: TestApp;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp();
  ada = await registerVerifiedCustomer(t, 'ada.buy@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.buy@example.com');
});
afterAll(async () => t.close());

async function currentPrice() {
  const response = await t.app.inject({ method: 'GET', url: '/api/price' });
  expect(response.statusCode).toBe(200);
  return response.json<{
    sellPrice: number;
    buyPrice: number;
    networkFee: number;
    stale: boolean;
    source: string;
  }>();
}

const buyOrder = (who: RegisteredCustomer, valueUsd: number, overrides: Record<string, unknown> = {}) =>
  buyOrderPayload(t, who, valueUsd, overrides);

const save = (who: RegisteredCustomer, payload: object) =>
  t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload });
const update = (who: RegisteredCustomer, payload: object) =>
  t.request({ method: 'POST', url: '/api/order/update', headers: who.auth, payload });
const list = (who: RegisteredCustomer, query = `userId=${who.userId}`) =>
  t.app.inject({ method: 'GET', url: `/api/order/list?${query}`, headers: who.auth });

describe('GET /api/price', () => {
  it('serves the platform prices: customers buy at sellPrice, above the buyPrice they sell at', async () => {
    const price = await currentPrice();
    expect(price.sellPrice).toBeGreaterThan(price.buyPrice);
    expect(price.networkFee).toBeGreaterThan(0);
    expect(price).toMatchObject({ stale: false, source: 'demo' });
  });
});

describe('buy orders', () => {
  it('saves a pending buy with the server’s own figures, equal to the shared maths to the cent and satoshi', async () => {
    const payload = await buyOrder(ada, 250);
    const response = await save(ada, payload);
    expect(response.statusCode).toBe(200);
    const { order, message } = response.json();
    expect(message).toMatch(/^Order #[0-9a-f]{8} has been created\.$/);
    expect(order).toMatchObject({
      type: 'buy',
      pair: 'BTC-USD',
      status: 'pending',
      value: 250,
      amount: payload.amount,
      price: payload.price,
      platformFee: 3.75,
      networkFee: payload.networkFee,
      walletAddress: WALLET,
      txn: null,
      bankTxn: null,
      payment: null,
    });
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    expect(row?.valueCents).toBe(25_000n);
    expect(row!.amountSats % 100n).toBe(0n);
    expect(row!.quoteExpiresAt.getTime() - row!.createdAt.getTime()).toBeGreaterThanOrEqual(899_000);
    const events = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order._id));
    expect(events).toMatchObject([{ fromStatus: null, toStatus: 'pending', actor: `user:${ada.userId}` }]);
  });

  it('refuses client figures that disagree with the server (price, fee, amount, value)', async () => {
    const base = await buyOrder(ada, 100);
    const tampered = [
      { price: base.price - 1000 },
      { platformFee: 0 },
      { networkFee: 0 },
      { amount: Number((base.amount + 0.0001).toFixed(8)) },
      { value: 99 },
    ];
    for (const change of tampered) {
      const response = await save(ada, { ...base, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json()).toMatchObject({
        message: 'The price has changed. Review the new quote and confirm again.',
        code: 'PRICE_CHANGED',
      });
    }
  });

  it('honours a price served in the last two minutes besides the current one, and no older', async () => {
    const served = await currentPrice();
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const quotedAt = async (sellPrice: number) => {
      const quote = quoteBuyFromUsd({
        valueCents: 12_000n,
        sellPriceCents: usdNumberToCents(sellPrice),
        feeBps: 150,
        networkFeeSats: btcNumberToSats(served.networkFee),
      })!;
      return save(ada, {
        ...(await buyOrder(ada, 120)),
        price: sellPrice,
        amount: satsToBtcNumber(quote.amountSats),
        platformFee: centsToUsdNumber(quote.platformFeeCents),
        networkFee: centsToUsdNumber(quote.networkFeeCents),
      });
    };
    // Two earlier prices, neither of them the one served now: one a minute old, one three.
    for (const [offset, fetchedAt] of [
      [700, minutesAgo(1)],
      [900, minutesAgo(3)],
    ] as const) {
      await t.database.db.insert(priceSnapshots).values({
        sellPriceCents: usdNumberToCents(served.sellPrice + offset),
        buyPriceCents: usdNumberToCents(served.buyPrice),
        networkFeeSats: btcNumberToSats(served.networkFee),
        source: 'demo',
        fetchedAt,
      });
    }

    const recent = await quotedAt(served.sellPrice + 700);
    expect(recent.statusCode, recent.body).toBe(200);
    expect(recent.json().order).toMatchObject({ price: served.sellPrice + 700, status: 'pending' });
    const old = await quotedAt(served.sellPrice + 900);
    expect(old.statusCode).toBe(400);
    expect(old.json()).toMatchObject({ code: 'PRICE_CHANGED' });
  });

  it('refuses bad amounts: negative, zero, too many decimals, below the minimum, above the maximum', async () => {
    const base = await buyOrder(ada, 100);
    const cases: [object, RegExp][] = [
      [{ value: -5 }, /greater than zero|minus/],
      [{ value: 0 }, /greater than zero/],
      [{ value: 10.123 }, /2 decimal places/],
      [{ amount: 0.000000001 }, /8 decimal places/],
      [await buyOrder(ada, 19.99), /^Minimum order is \$20\.00$/],
      [await buyOrder(ada, 10_000.01), /^Maximum limit is \$10,000\.00$/],
      [{ value: '100' }, /.+/],
      [{ value: null }, /.+/],
    ];
    for (const [change, message] of cases) {
      const response = await save(ada, { ...base, ...change });
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(response.json().message).toMatch(message);
    }
  });

  it('refuses a wrong-network or malformed address with the spec message and what is wrong', async () => {
    for (const [walletAddress, problem] of [
      ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'This is a mainnet address. Use a testnet address.'],
      ['not-an-address', 'This is not a bitcoin address.'],
      ['', 'Enter a bitcoin address.'],
      [
        'tb1pve739yap4uxjvfk0jrey69078u0gasm2nwvv483ec6zkzulgw9xqtac2nz',
        'This taproot address does not hold a valid public key: no one could ever spend coins sent to it. Copy it again from your wallet.',
      ],
    ]) {
      const response = await save(ada, await buyOrder(ada, 100, { walletAddress }));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(`Invalid Bitcoin Address. ${problem}`);
    }
  });

  it('refuses unknown fields (no mass assignment of status)', async () => {
    const response = await save(ada, { ...(await buyOrder(ada, 100)), status: 'completed' });
    expect(response.statusCode).toBe(400);
  });

  it('checks the customer in the spec order: e-mail, phone, KYC exists, KYC approved', async () => {
    const fresh = await registerCustomer(t, 'fresh.buy@example.com');
    const noKyc = await save(fresh, await buyOrder(fresh, 100));
    expect(noKyc.statusCode).toBe(403);
    expect(noKyc.json().message).toBe('Upload your KYC');
    await t.request({
      method: 'POST',
      url: '/api/dev/kyc/decide',
      payload: { userId: fresh.userId, status: 'YELLOW' },
    });
    expect((await save(fresh, await buyOrder(fresh, 100))).json().message).toBe('Your KYC is under review');
    await t.database.db.execute(sql`update users set phone_verified = false where id = ${fresh.userId}`);
    forgetCachedSessions(fresh.userId);
    expect((await save(fresh, await buyOrder(fresh, 100))).json().message).toBe('Verify your phone number');
    await t.database.db.execute(sql`update users set email_verified = false where id = ${fresh.userId}`);
    forgetCachedSessions(fresh.userId);
    expect((await save(fresh, await buyOrder(fresh, 100))).json().message).toBe('Verify your email');
  });

  it('a restricted customer can sign in and read their orders, but not trade', async () => {
    const carol = await registerVerifiedCustomer(t, 'carol.restricted@example.com');
    expect((await save(carol, await buyOrder(carol, 100))).statusCode).toBe(200);
    expect(await restrictCustomer(t.database.db, carol.userId, 'payment_reversed')).toBe(true);
    expect(await restrictCustomer(t.database.db, carol.userId, 'later reason')).toBe(false);
    const refused = await save(carol, await buyOrder(carol, 100));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Your account is under review. Contact support.');
    const listed = await list(carol);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().result.orders).toHaveLength(1);
  });

  it("refuses saving for another customer's id (403)", async () => {
    const response = await save(ada, await buyOrder(bob, 100));
    expect(response.statusCode).toBe(403);
  });

  it('records a Zelle payment: processing, with our receiving details; then the bank reference', async () => {
    const { order } = (await save(ada, await buyOrder(ada, 120))).json();
    const paid = await update(ada, {
      _id: order._id,
      payment: {
        method: 'zelle',
        amount: 120,
        create_time: new Date().toISOString(),
        receiving_in: { payment_address: 'attacker@example.com' },
      },
      status: 'processing',
    });
    expect(paid.statusCode).toBe(200);
    expect(paid.json().order).toMatchObject({
      status: 'processing',
      payment: { method: 'zelle', receiving_in: { payment_address: 'payments@offzero.example' } },
      bankTxn: null,
    });
    // Blank reference is ignored; a real one is kept.
    expect((await update(ada, { _id: order._id, bankTxn: '   ' })).json().order.bankTxn).toBeNull();
    const withRef = await update(ada, { _id: order._id, bankTxn: ' ZL-2026-000123 ' });
    expect(withRef.json()).toMatchObject({
      message: 'Bank Tx Ref No. Added',
      order: { bankTxn: 'ZL-2026-000123' },
    });
    // Paying twice is refused.
    const again = await update(ada, { _id: order._id, payment: { method: 'ach' }, status: 'processing' });
    expect(again.statusCode).toBe(409);
    const moves = await t.database.db.select().from(orderEvents).where(eq(orderEvents.orderId, order._id));
    expect(moves.map((m) => `${m.fromStatus}->${m.toStatus}`)).toEqual([
      'null->pending',
      'pending->processing',
    ]);
  });

  it('notifies the customer at a state change, honouring their toggles', async () => {
    const carol = await registerVerifiedCustomer(t, 'carol.buy@example.com');
    await t.database.db.insert(userSettings).values({ userId: carol.userId, receiveSms: false });
    const { order } = (await save(carol, await buyOrder(carol, 60))).json();
    await update(carol, { _id: order._id, payment: { method: 'wire' }, status: 'processing' });
    const messages = await t.database.db
      .select()
      .from(outboxMessages)
      .where(sql`${outboxMessages.text} like ${`%#${order._id.slice(0, 8)}%`}`);
    expect(messages.map((m) => m.channel)).toEqual(['email']);
    expect(messages[0]?.text).toContain('is being processed');
  });

  it("answers 404 for another customer's order in update, and 403 for their list", async () => {
    const { order } = (await save(ada, await buyOrder(ada, 50))).json();
    const response = await update(bob, {
      _id: order._id,
      payment: { method: 'zelle' },
      status: 'processing',
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain(ada.userId);
    expect((await update(bob, { _id: order._id, bankTxn: 'X' })).statusCode).toBe(404);
    expect((await update(bob, { _id: 'not-a-uuid', bankTxn: 'X' })).statusCode).toBe(404);
    expect((await list(bob, `userId=${ada.userId}`)).statusCode).toBe(403);
  });

  it('refuses payment after the quote lock expired, and the expiry job expires it', async () => {
    const { order } = (await save(ada, await buyOrder(ada, 40))).json();
    await t.database.db
      .update(orders)
      .set({ quoteExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order._id));
    const late = await update(ada, { _id: order._id, payment: { method: 'zelle' }, status: 'processing' });
    expect(late.statusCode).toBe(410);
    expect(late.json().message).toBe('This quote has expired. Get a new quote to continue.');
    await expect
      .poll(
        async () =>
          (await list(ada)).json().result.orders.find((o: { _id: string }) => o._id === order._id).status,
        { timeout: 10_000 },
      )
      .toBe('expired');
  });

  it('re-quotes a pending order with fresh figures', async () => {
    const { order } = (await save(ada, await buyOrder(ada, 75))).json();
    const requote = await update(ada, { ...(await buyOrder(ada, 80)), _id: order._id });
    expect(requote.statusCode).toBe(200);
    expect(requote.json().order).toMatchObject({ _id: order._id, value: 80, status: 'pending' });
  });

  it('audits every re-quote: an order event with the figures before and after, and why', async () => {
    const { order } = (await save(ada, await buyOrder(ada, 90))).json();
    const [before] = await t.database.db.select().from(orders).where(eq(orders.id, order._id));
    // The price moves: the server serves a new price 1,000 USD higher, and the customer confirms at it.
    const served = await currentPrice();
    const newSellPrice = served.sellPrice + 1_000;
    await t.database.db.insert(priceSnapshots).values({
      sellPriceCents: usdNumberToCents(newSellPrice),
      buyPriceCents: usdNumberToCents(served.buyPrice),
      networkFeeSats: btcNumberToSats(served.networkFee),
      source: 'demo',
      fetchedAt: new Date(),
    });
    const quote = quoteBuyFromUsd({
      valueCents: 9_000n,
      sellPriceCents: usdNumberToCents(newSellPrice),
      feeBps: 150,
      networkFeeSats: btcNumberToSats(served.networkFee),
    })!;
    const requote = await update(ada, {
      ...(await buyOrder(ada, 90)),
      price: newSellPrice,
      amount: satsToBtcNumber(quote.amountSats),
      platformFee: centsToUsdNumber(quote.platformFeeCents),
      networkFee: centsToUsdNumber(quote.networkFeeCents),
      _id: order._id,
    });
    expect(requote.statusCode, requote.body).toBe(200);
    expect(requote.json()).toMatchObject({
      message: 'Order updated with the new quote.',
      order: {
        _id: order._id,
        status: 'pending',
        price: newSellPrice,
        amount: satsToBtcNumber(quote.amountSats),
      },
    });

    const events = await t.database.db
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order._id))
      .orderBy(asc(orderEvents.createdAt));
    expect(events).toHaveLength(2);
    expect(events[1]).toMatchObject({
      fromStatus: 'pending',
      toStatus: 'pending',
      actor: `user:${ada.userId}`,
      reason: 'the customer confirmed again at the current price',
      details: {
        event: 'requoted',
        before: {
          priceCents: before!.priceCents.toString(),
          amountSats: before!.amountSats.toString(),
          valueCents: '9000',
          quoteExpiresAt: before!.quoteExpiresAt.toISOString(),
        },
        after: {
          priceCents: usdNumberToCents(newSellPrice).toString(),
          amountSats: quote.amountSats.toString(),
          valueCents: '9000',
          platformFeeCents: quote.platformFeeCents.toString(),
          networkFeeCents: quote.networkFeeCents.toString(),
        },
      },
    });
    expect(before!.priceCents).not.toBe(usdNumberToCents(newSellPrice));
  });

  it('lists newest first, with a limit', async () => {
    const all = (await list(ada)).json().result.orders;
    expect(all.length).toBeGreaterThanOrEqual(5);
    const times = all.map((o: { createdAt: string }) => o.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await list(ada, `userId=${ada.userId}&limit=5`)).json().result.orders).toHaveLength(5);
    expect((await list(ada, `userId=${ada.userId}&limit=0`)).statusCode).toBe(400);
  });
});
