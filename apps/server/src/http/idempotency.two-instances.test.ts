import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createSimulatedChain, type SimulatedChain } from '../chain/simulated-chain';
import { adminActions, orderEvents, orders, payouts } from '../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { buyOrderPayload, confirmPayoutAddresses } from '../test/buy-helpers';
import { saveBank, saveZelle, sellOrder, fileW9 } from '../test/sell-helpers';
import { createTestApp, createTestAppOnSameDatabase, type TestApp } from '../test/test-app';

/**
 * docs/design.md across processes: the whole money path (quote, save, pay, payout) with every action
 * sent 20 times at once, split across two server processes on one PostgreSQL database, under one
 * Idempotency-Key per action: one effect each, and every caller gets the first answer.
 */
const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';
const REPEATS = 20;

describe.runIf(IS_POSTGRES)('the money path on two processes, every action sent 20 times', () => {
  let a: TestApp;
  let b: TestApp;
  let chain: SimulatedChain;
  let admin: RegisteredCustomer;
  let ada: RegisteredCustomer;

  beforeAll(async () => {
    // One signing secret, as two processes of one deployment share; no background polling.
    const overrides = { CHAIN_POLL_SECONDS: '600', JWT_SECRET: randomBytes(32).toString('hex') };
    a = await createTestApp({ ...overrides, BITCOIN_NETWORK: 'testnet' });
    b = await createTestAppOnSameDatabase(a, { ...overrides, BITCOIN_NETWORK: 'testnet' });
    chain = createSimulatedChain(a.database.db);
    admin = await logIn(a, 'admin@offzero.local');
    ada = await registerVerifiedCustomer(a, 'ada.two.processes@example.com');
    await saveBank(a, ada);
    await fileW9(a, ada);
    await saveZelle(a, ada, 'ada.two.processes@example.com');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** The same call 20 times at once, alternately on each process, with one key; all answers alike. */
  async function twentyTimes(
    key: string,
    call: (app: TestApp, headers: Record<string, string>) => Promise<LightMyRequestResponse>,
  ): Promise<LightMyRequestResponse> {
    const answers = await Promise.all(
      Array.from({ length: REPEATS }, (_, i) => call(i % 2 === 0 ? a : b, { 'idempotency-key': key })),
    );
    const first = answers[0]!;
    expect(first.statusCode, first.body).toBe(200);
    expect(answers.map((r) => r.statusCode)).toEqual(Array(REPEATS).fill(200));
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    return first;
  }

  const db = () => a.database.db;
  const auditCount = async (orderId: string, action: string) =>
    (
      await db()
        .select()
        .from(adminActions)
        .where(and(eq(adminActions.targetId, orderId), eq(adminActions.action, action)))
    ).length;

  it('buy: save, Zelle payment, mark-paid and send-btc each take effect once', async () => {
    // Quote: the price both processes serve, priced with the shared maths.
    const payload = await buyOrderPayload(a, ada, 140);
    const before = (await chain.outputsTo(payload.walletAddress)).length;

    const saved = await twentyTimes('buy-save', (app, headers) =>
      app.request({ method: 'POST', url: '/api/order/save', headers: { ...ada.auth, ...headers }, payload }),
    );
    const orderId = saved.json().order._id as string;
    expect(await db().select().from(orders).where(eq(orders.userId, ada.userId))).toHaveLength(1);
    // The buy's new address is confirmed from the e-mail before its bitcoin can be sent.
    await confirmPayoutAddresses(a, ada);

    await twentyTimes('buy-pay-zelle', (app, headers) =>
      app.request({
        method: 'POST',
        url: '/api/order/update',
        headers: { ...ada.auth, ...headers },
        payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
      }),
    );
    const moves = await db().select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
    expect(moves.filter((m) => m.toStatus === 'processing' && m.fromStatus === 'pending')).toHaveLength(1);

    await twentyTimes('buy-mark-paid', (app, headers) =>
      app.request({
        method: 'POST',
        url: `/api/admin/orders/${orderId}/mark-paid`,
        headers: { ...admin.auth, ...headers },
        payload: {},
      }),
    );
    expect(await auditCount(orderId, 'order.mark_paid')).toBe(1);

    const sent = await twentyTimes('buy-send-btc', (app, headers) =>
      app.request({
        method: 'POST',
        url: `/api/admin/orders/${orderId}/send-btc`,
        headers: { ...admin.auth, ...headers },
        payload: {},
      }),
    );
    expect(sent.json().order).toMatchObject({ status: 'completed' });
    expect((await chain.outputsTo(payload.walletAddress)).length).toBe(before + 1);
    expect(await db().select().from(payouts).where(eq(payouts.orderId, orderId))).toHaveLength(1);
    expect(await auditCount(orderId, 'order.payout_btc')).toBe(1);
  });

  it('sell: save (one deposit address) and payout-usd each take effect once', async () => {
    const { payload } = await sellOrder(a, ada, 0.003);
    const saved = await twentyTimes('sell-save', (app, headers) =>
      app.request({ method: 'POST', url: '/api/order/save', headers: { ...ada.auth, ...headers }, payload }),
    );
    const order = saved.json().order as { _id: string; walletAddress: { address: string } };
    const sells = await db()
      .select()
      .from(orders)
      .where(and(eq(orders.userId, ada.userId), eq(orders.type, 'sell')));
    expect(sells).toHaveLength(1);

    await chain.send(order.walletAddress.address, 300_000n);
    await chain.mine(1);
    await Promise.all([a.app.depositWatcher.pollOnce(), b.app.depositWatcher.pollOnce()]);

    const paid = await twentyTimes('sell-payout-usd', (app, headers) =>
      app.request({
        method: 'POST',
        url: `/api/admin/orders/${order._id}/payout-usd`,
        headers: { ...admin.auth, ...headers },
        payload: { reference: 'ZELLE-2P-0001' },
      }),
    );
    expect(paid.json().order).toMatchObject({ status: 'completed' });
    expect(await db().select().from(payouts).where(eq(payouts.orderId, order._id))).toHaveLength(1);
    expect(await auditCount(order._id, 'order.payout_usd')).toBe(1);
  });
});
