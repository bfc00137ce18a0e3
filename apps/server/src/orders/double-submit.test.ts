import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../db/schema';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { buyOrderPayload, TEST_WALLET } from '../test/buy-helpers';
import { saveBank, saveZelle, sellOrder, fileW9 } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

/** docs/design.md: whatever the key, a double submission of the same order makes one order. */
let t: TestApp;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp({ BITCOIN_NETWORK: 'testnet' });
  ada = await registerVerifiedCustomer(t, 'ada.double@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.double@example.com');
  for (const who of [ada, bob]) {
    await saveBank(t, who);
    await fileW9(t, who);
    await saveZelle(t, who, `zelle.${who.userId.slice(0, 6)}@example.com`);
  }
});
afterAll(async () => t.close());

const save = (who: RegisteredCustomer, payload: object) =>
  t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload });

const ordersOf = (who: RegisteredCustomer, type: 'buy' | 'sell') =>
  t.database.db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, who.userId), eq(orders.type, type)));

describe('double submission without a key', () => {
  it('answers a second identical buy within 10 seconds with the first order', async () => {
    const payload = await buyOrderPayload(t, ada, 210);
    const first = await save(ada, payload);
    const second = await save(ada, payload);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.json().order._id).toBe(first.json().order._id);
    expect(await ordersOf(ada, 'buy')).toHaveLength(1);
  });

  it('makes one sell with one deposit address when the same sell is saved 5 times at once', async () => {
    const { payload } = await sellOrder(t, ada, 0.004);
    const answers = await Promise.all(Array.from({ length: 5 }, () => save(ada, payload)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().order._id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.json().order.walletAddress.address)).size).toBe(1);
    const sells = await ordersOf(ada, 'sell');
    expect(sells).toHaveLength(1);
    // No deposit index was spent on the repeats: the next sell takes the very next one.
    const { payload: next } = await sellOrder(t, bob, 0.005);
    const nextSell = await save(bob, next);
    const [nextRow] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.id, nextSell.json().order._id));
    expect(nextRow!.depositIndex).toBe(sells[0]!.depositIndex! + 1);
  });

  it('makes separate orders for different figures, another payout address or another customer', async () => {
    const before = (await ordersOf(ada, 'buy')).length;
    const a = await save(ada, await buyOrderPayload(t, ada, 220));
    const b = await save(ada, await buyOrderPayload(t, ada, 221));
    const c = await save(
      ada,
      await buyOrderPayload(t, ada, 220, { walletAddress: 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx' }),
    );
    const d = await save(bob, await buyOrderPayload(t, bob, 220));
    const ids = [a, b, c, d].map((r) => r.json().order._id);
    expect(new Set(ids).size).toBe(4);
    expect(await ordersOf(ada, 'buy')).toHaveLength(before + 3);
    expect((await ordersOf(bob, 'buy')).map((o) => o.walletAddress)).toEqual([TEST_WALLET]);
  });

  it('makes a new order once 10 seconds have passed, or once the first is no longer pending', async () => {
    const payload = await buyOrderPayload(t, bob, 230);
    const first = (await save(bob, payload)).json().order._id as string;
    await t.database.db
      .update(orders)
      .set({ createdAt: sql`now() - interval '11 seconds'` })
      .where(eq(orders.id, first));
    const later = (await save(bob, payload)).json().order._id as string;
    expect(later).not.toBe(first);

    const paid = await t.request({
      method: 'POST',
      url: '/api/order/update',
      headers: bob.auth,
      payload: { _id: later, payment: { method: 'zelle' }, status: 'processing' },
    });
    expect(paid.statusCode).toBe(200);
    const third = (await save(bob, payload)).json().order._id as string;
    expect([first, later]).not.toContain(third);
  });
});
