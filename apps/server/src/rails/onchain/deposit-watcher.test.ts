import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { formatBtc, satsToBtcNumber, usdNumberToCents } from '@offzero/shared/money/money';
import { quoteSellFromBtc } from '@offzero/shared/quotes/quote';
import type { ChainApi } from '../../chain/chain-api';
import { createSimulatedChain } from '../../chain/simulated-chain';
import {
  deposits,
  orderEvents,
  orders,
  outboxMessages,
  simChainTransactions,
  type OrderRow,
} from '../../db/schema';
import {
  createMemoryEventBus,
  createRedisEventBus,
  type EventBus,
  type EventBusLogger,
  type RealtimeEvent,
} from '../../realtime/event-bus';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import {
  currentPrice,
  DEMO_FEE_BPS,
  saveBank,
  saveZelle,
  sellOrder,
  type SellMethod,
  fileW9,
} from '../../test/sell-helpers';
import { createTestApp, createTestAppOnSameDatabase, type TestApp } from '../../test/test-app';
import { deriveDepositAddress, DEMO_ACCOUNT_VPUB } from './deposit-address';
import { createDepositWatcher } from './deposit-watcher';

const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';
const REDIS_URL = process.env.REDIS_URL;
/** Confirmations before a deposit counts (demo default is 1; 2 shows the count rising first). */
const CONFIRMATIONS = 2;
/** The background jobs must not poll on their own: the tests run every pass themselves. */
const NO_BACKGROUND_POLLING = { CHAIN_POLL_SECONDS: '600', DEPOSIT_CONFIRMATIONS: String(CONFIRMATIONS) };

interface Published {
  userId: string;
  event: RealtimeEvent;
}

/** A memory bus that remembers every publish, in order. */
function recordingBus(): EventBus & { published: Published[] } {
  const inner = createMemoryEventBus();
  const published: Published[] = [];
  return {
    published,
    async publish(userId, event) {
      published.push({ userId, event });
      await inner.publish(userId, event);
    },
    subscribe: (listener) => inner.subscribe(listener),
    onGap: (listener) => inner.onGap(listener),
    close: () => inner.close(),
  };
}

/** The id of the order an event is about. */
function orderIdOf(event: RealtimeEvent): string | undefined {
  if (event.type === 'new-transaction') return event.payload._id;
  if (event.type === 'order-updated') return (event.payload.order as { _id?: string })._id;
  return undefined;
}

const silentLog: EventBusLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A customer who may sell by every method. */
async function seller(t: TestApp, email: string): Promise<RegisteredCustomer> {
  const customer = await registerVerifiedCustomer(t, email);
  await saveBank(t, customer);
  await fileW9(t, customer);
  await saveZelle(t, customer, email);
  return customer;
}

/** The calls a customer, the demo chain and the watcher make, on one app. */
function driver(t: TestApp) {
  const db = t.database.db;
  const ok = async (response: Awaited<ReturnType<TestApp['request']>>) => {
    if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
    return response;
  };
  return {
    poll: () => t.app.depositWatcher.pollOnce(),
    async placeSell(who: RegisteredCustomer, amountBtc: number, method: SellMethod = 'zelle') {
      const { payload } = await sellOrder(t, who, amountBtc, method);
      const response = await ok(
        await t.request({ method: 'POST', url: '/api/order/save', headers: who.auth, payload }),
      );
      const order = response.json<{ order: { _id: string; walletAddress: { address: string } } }>().order;
      return { id: order._id, address: order.walletAddress.address };
    },
    async send(address: string, amount: number): Promise<string> {
      const response = await ok(
        await t.request({ method: 'POST', url: '/api/dev/chain/send', payload: { address, amount } }),
      );
      return response.json<{ txid: string }>().txid;
    },
    async mine(blocks = 1): Promise<number> {
      const response = await ok(
        await t.request({ method: 'POST', url: '/api/dev/chain/mine', payload: { blocks } }),
      );
      return response.json<{ height: number }>().height;
    },
    async drop(txid: string): Promise<void> {
      await ok(await t.request({ method: 'POST', url: '/api/dev/chain/drop', payload: { txid } }));
    },
    async order(id: string): Promise<OrderRow> {
      const [row] = await db.select().from(orders).where(eq(orders.id, id));
      if (!row) throw new Error(`order ${id} not found`);
      return row;
    },
    depositsOf: (orderId: string) => db.select().from(deposits).where(eq(deposits.orderId, orderId)),
    moves: async (orderId: string) =>
      (await db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map((e) => `${e.fromStatus}->${e.toStatus}`),
    /** Every e-mail and SMS that names the order. */
    notices: (orderId: string) =>
      db
        .select()
        .from(outboxMessages)
        .where(sql`${outboxMessages.text} like ${`%#${orderId.slice(0, 8)}%`}`),
  };
}

describe('deposit watcher', () => {
  const bus = recordingBus();
  let t: TestApp;
  let d: ReturnType<typeof driver>;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;

  beforeAll(async () => {
    t = await createTestApp(NO_BACKGROUND_POLLING, undefined, { realtime: { bus } });
    d = driver(t);
    ada = await seller(t, 'ada.deposit@example.com');
    bob = await seller(t, 'bob.deposit@example.com');
  });
  afterAll(async () => t.close());

  /** Events published about one order since the last `bus.published` reset. */
  const eventsAbout = (orderId: string) => bus.published.filter((p) => orderIdOf(p.event) === orderId);
  const newTransactions = (orderId: string) =>
    eventsAbout(orderId).filter((p) => p.event.type === 'new-transaction');

  it('credits a deposit of exactly the amount: processing, txn, one deposit, events to its owner only', async () => {
    const order = await d.placeSell(ada, 0.01);
    const placed = await d.order(order.id);
    bus.published.length = 0;

    const txid = await d.send(order.address, 0.01);
    // Nothing happens until the watcher looks.
    expect((await d.order(order.id)).status).toBe('pending');
    expect(await d.poll()).toEqual({ credited: 1 });

    const row = await d.order(order.id);
    expect(row).toMatchObject({
      status: 'processing',
      txn: txid,
      receivedSats: 1_000_000n,
      confirmations: 0,
      flag: null,
      // On time and exact: the locked quote stands.
      amountSats: placed.amountSats,
      valueCents: placed.valueCents,
      priceCents: placed.priceCents,
      platformFeeCents: placed.platformFeeCents,
    });
    expect(await d.depositsOf(order.id)).toMatchObject([
      { txid, vout: 0, address: order.address, valueSats: 1_000_000n, status: 'seen', confirmations: 0 },
    ]);
    expect(await d.moves(order.id)).toEqual(['null->pending', 'pending->processing']);

    // The spec's notice first, then the status update; both to Ada and nobody else.
    expect(bus.published).toEqual([
      {
        userId: ada.userId,
        event: { type: 'new-transaction', payload: { amount: 0.01, _id: order.id, txn: txid } },
      },
      {
        userId: ada.userId,
        event: {
          type: 'order-updated',
          payload: {
            order: expect.objectContaining({ _id: order.id, status: 'processing', txn: txid }),
          },
        },
      },
    ]);
    const notices = await d.notices(order.id);
    expect(notices.map((n) => n.channel).sort()).toEqual(['email', 'sms']);
    expect(notices.every((n) => n.text.includes('is being processed'))).toBe(true);

    // The customer sees it in their list.
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/order/list?userId=${ada.userId}`,
      headers: ada.auth,
    });
    expect(list.json().result.orders.find((o: { _id: string }) => o._id === order.id)).toMatchObject({
      status: 'processing',
      txn: txid,
    });
  });

  it('credits a transaction seen again only once, and announces it once', async () => {
    const order = await d.placeSell(ada, 0.004);
    const txid = await d.send(order.address, 0.004);
    expect(await d.poll()).toEqual({ credited: 1 });
    const noticesAfterCredit = (await d.notices(order.id)).length;
    bus.published.length = 0;

    expect(await d.poll()).toEqual({ credited: 0 });
    expect(await d.poll()).toEqual({ credited: 0 });
    expect(eventsAbout(order.id)).toEqual([]);
    expect(await d.depositsOf(order.id)).toMatchObject([{ txid, status: 'seen' }]);
    expect(await d.moves(order.id)).toEqual(['null->pending', 'pending->processing']);
    expect(await d.notices(order.id)).toHaveLength(noticesAfterCredit);
  });

  it('credits once when two watcher passes run at the same time', async () => {
    const placed = [await d.placeSell(ada, 0.003), await d.placeSell(bob, 0.0035, 'ach')];
    bus.published.length = 0;
    for (const order of placed) await d.send(order.address, order === placed[0] ? 0.003 : 0.0035);

    const results = await Promise.all([d.poll(), d.poll(), d.poll()]);
    expect(results.reduce((sum, r) => sum + r.credited, 0)).toBe(2);
    for (const order of placed) {
      expect(await d.depositsOf(order.id)).toHaveLength(1);
      expect(await d.moves(order.id)).toEqual(['null->pending', 'pending->processing']);
      expect(newTransactions(order.id)).toHaveLength(1);
      expect((await d.notices(order.id)).filter((n) => n.channel === 'email')).toHaveLength(1);
    }
  });

  it('counts confirmations as blocks are mined and notifies the customer once when there are enough', async () => {
    const order = await d.placeSell(bob, 0.005);
    const txid = await d.send(order.address, 0.005);
    await d.poll();
    const perNotice = (await d.notices(order.id)).length;
    expect(perNotice).toBeGreaterThan(0);
    bus.published.length = 0;

    const height = await d.mine(1);
    await d.poll();
    expect(await d.order(order.id)).toMatchObject({ status: 'processing', confirmations: 1 });
    expect(await d.depositsOf(order.id)).toMatchObject([{ txid, confirmations: 1, blockHeight: height }]);
    expect(eventsAbout(order.id)).toEqual([
      {
        userId: bob.userId,
        event: { type: 'order-updated', payload: { order: expect.objectContaining({ confirmations: 1 }) } },
      },
    ]);
    // One confirmation of two: no message yet.
    expect(await d.notices(order.id)).toHaveLength(perNotice);

    // The second confirmation, seen by two passes at once: one message.
    await d.mine(1);
    await Promise.all([d.poll(), d.poll()]);
    expect(await d.order(order.id)).toMatchObject({ confirmations: CONFIRMATIONS });
    expect(await d.depositsOf(order.id)).toMatchObject([{ confirmations: CONFIRMATIONS }]);
    expect(await d.notices(order.id)).toHaveLength(2 * perNotice);

    // Seen again, and more blocks: no further message.
    await d.poll();
    await d.mine(3);
    await d.poll();
    expect(await d.order(order.id)).toMatchObject({ confirmations: 5 });
    expect(await d.notices(order.id)).toHaveLength(2 * perNotice);
    expect(newTransactions(order.id)).toEqual([]);
    expect(eventsAbout(order.id).every((p) => p.userId === bob.userId)).toBe(true);
  });

  it.each([
    ['underpaid', 0.006, 600_000n],
    ['overpaid', 0.015, 1_500_000n],
  ] as const)('re-prices a deposit that is %s at the locked price and flags it', async (flag, sent, sats) => {
    const order = await d.placeSell(ada, 0.01, 'ach');
    const placed = await d.order(order.id);
    const txid = await d.send(order.address, sent);
    expect(await d.poll()).toEqual({ credited: 1 });

    const expected = quoteSellFromBtc({
      amountSats: sats,
      buyPriceCents: placed.priceCents,
      feeBps: DEMO_FEE_BPS,
      bankChargesCents: 100n,
    })!;
    const row = await d.order(order.id);
    expect(row).toMatchObject({
      status: 'processing',
      txn: txid,
      flag,
      receivedSats: sats,
      amountSats: sats,
      priceCents: placed.priceCents,
      valueCents: expected.valueCents,
      platformFeeCents: expected.platformFeeCents,
      bankFeeCents: 100n,
    });
    expect(row.flagNote).toContain(formatBtc(sats));
    expect(row.valueCents).toBe(expected.grossCents - expected.platformFeeCents - 100n);
    expect(newTransactions(order.id).at(-1)?.event).toEqual({
      type: 'new-transaction',
      payload: { amount: sent, _id: order.id, txn: txid },
    });
    // The customer's list shows what will be paid for what arrived.
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/order/list?userId=${ada.userId}`,
      headers: ada.auth,
    });
    expect(list.json().result.orders.find((o: { _id: string }) => o._id === order.id)).toMatchObject({
      amount: sent,
      flag,
      walletAddress: { address: order.address, amount: sent },
    });
  });

  it('keeps a deposit too small to pay out after fees, without making the order due for its full value', async () => {
    // 500 satoshis are about 33 cents: less than ACH's $1 bank charge.
    const order = await d.placeSell(bob, 0.01, 'ach');
    const placed = await d.order(order.id);
    expect(
      quoteSellFromBtc({
        amountSats: 500n,
        buyPriceCents: placed.priceCents,
        feeBps: DEMO_FEE_BPS,
        bankChargesCents: 100n,
      }),
    ).toBeNull();
    const dust = await d.send(order.address, 0.000005);
    await d.poll();
    // Recorded and flagged, never lost; but nothing is due for it.
    expect(await d.depositsOf(order.id)).toMatchObject([{ txid: dust, valueSats: 500n, status: 'seen' }]);
    const row = await d.order(order.id);
    expect(row.flag).toBe('underpaid');
    expect(row.flagNote).toContain('too small');
    expect(row.status).not.toBe('processing');
    expect(row.status).not.toBe('completed');

    // The rest arrives: both payments are priced on their sum, and the order is still underpaid.
    const rest = await d.send(order.address, 0.0099);
    await d.poll();
    const expected = quoteSellFromBtc({
      amountSats: 990_500n,
      buyPriceCents: placed.priceCents,
      feeBps: DEMO_FEE_BPS,
      bankChargesCents: 100n,
    })!;
    expect(await d.order(order.id)).toMatchObject({
      status: 'processing',
      txn: rest,
      receivedSats: 990_500n,
      amountSats: 990_500n,
      valueCents: expected.valueCents,
      flag: 'underpaid',
    });
    expect(await d.depositsOf(order.id)).toHaveLength(2);
  });

  it('never loses a deposit that arrives after the window closed: processing, late_deposit, current price', async () => {
    const order = await d.placeSell(bob, 0.01);
    const placed = await d.order(order.id);
    // The order was locked at an older price, $500 above today's, and its window has closed.
    const oldPrice = placed.priceCents + 50_000n;
    await t.database.db
      .update(orders)
      .set({ priceCents: oldPrice, quoteExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(orders.id, order.id));
    await t.app.orderService.expireOverdue();
    expect((await d.order(order.id)).status).toBe('expired');

    const before = usdNumberToCents((await currentPrice(t)).buyPrice);
    const txid = await d.send(order.address, 0.01);
    expect(await d.poll()).toEqual({ credited: 1 });
    const after = usdNumberToCents((await currentPrice(t)).buyPrice);

    const row = await d.order(order.id);
    expect(row).toMatchObject({
      status: 'processing',
      flag: 'late_deposit',
      txn: txid,
      receivedSats: 1_000_000n,
    });
    expect([before, after]).toContain(row.priceCents);
    expect(row.priceCents).not.toBe(oldPrice);
    const expected = quoteSellFromBtc({
      amountSats: 1_000_000n,
      buyPriceCents: row.priceCents,
      feeBps: DEMO_FEE_BPS,
      bankChargesCents: 0n,
    })!;
    expect(row).toMatchObject({
      amountSats: 1_000_000n,
      valueCents: expected.valueCents,
      platformFeeCents: expected.platformFeeCents,
    });
    expect(await d.depositsOf(order.id)).toHaveLength(1);
    expect(await d.moves(order.id)).toEqual(['null->pending', 'pending->expired', 'expired->processing']);
    expect(newTransactions(order.id).map((p) => p.userId)).toEqual([bob.userId]);
  });

  it('watches an expired order for 24 hours and then no longer', async () => {
    const order = await d.placeSell(ada, 0.002);
    await t.database.db
      .update(orders)
      .set({ quoteExpiresAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(orders.id, order.id));
    await t.app.orderService.expireOverdue();
    const expired = await d.order(order.id);
    expect(expired.status).toBe('expired');

    await d.send(order.address, 0.002);
    expect(await d.poll()).toEqual({ credited: 0 });
    expect(await d.depositsOf(order.id)).toEqual([]);
    expect(await d.order(order.id)).toEqual(expired);

    // Within the 24 hours the same deposit is found and credited as late.
    await t.database.db
      .update(orders)
      .set({ quoteExpiresAt: new Date(Date.now() - 23 * 3600_000) })
      .where(eq(orders.id, order.id));
    expect(await d.poll()).toEqual({ credited: 1 });
    expect(await d.order(order.id)).toMatchObject({ status: 'processing', flag: 'late_deposit' });
  });

  it('takes the order back to pending when its transaction vanishes, and credits it again when it returns', async () => {
    const order = await d.placeSell(ada, 0.007);
    const placed = await d.order(order.id);
    const txid = await d.send(order.address, 0.007);
    await d.poll();
    expect((await d.order(order.id)).status).toBe('processing');
    bus.published.length = 0;

    await d.drop(txid);
    expect(await d.poll()).toEqual({ credited: 0 });
    expect(await d.depositsOf(order.id)).toMatchObject([{ txid, status: 'vanished' }]);
    const pending = await d.order(order.id);
    expect(pending).toMatchObject({
      status: 'pending',
      flag: 'vanished_tx',
      txn: null,
      receivedSats: null,
      confirmations: 0,
      valueCents: placed.valueCents,
    });
    expect(pending.flagNote).toContain(txid);
    expect(eventsAbout(order.id)).toEqual([
      {
        userId: ada.userId,
        event: {
          type: 'order-updated',
          payload: { order: expect.objectContaining({ status: 'pending', txn: null, flag: 'vanished_tx' }) },
        },
      },
    ]);
    // Seen again while gone: nothing more happens.
    await d.poll();
    expect((await d.order(order.id)).status).toBe('pending');

    // The demo chain has no "undrop" route; the same transaction reappearing (rebroadcast, or the
    // reorganisation undone) is simulated on its table.
    await t.database.db
      .update(simChainTransactions)
      .set({ dropped: false })
      .where(eq(simChainTransactions.txid, txid));
    expect(await d.poll()).toEqual({ credited: 1 });
    expect(await d.depositsOf(order.id)).toMatchObject([{ txid, status: 'seen' }]);
    expect(await d.order(order.id)).toMatchObject({
      status: 'processing',
      txn: txid,
      receivedSats: 700_000n,
      valueCents: placed.valueCents,
    });
    expect(await d.moves(order.id)).toEqual([
      'null->pending',
      'pending->processing',
      'processing->pending',
      'pending->processing',
    ]);
    expect(newTransactions(order.id)).toHaveLength(1);
  });

  it('credits a replacement transaction after the first one vanished', async () => {
    const order = await d.placeSell(bob, 0.004);
    const first = await d.send(order.address, 0.004);
    await d.poll();
    await d.drop(first);
    await d.poll();
    expect((await d.order(order.id)).status).toBe('pending');

    const replacement = await d.send(order.address, 0.004);
    expect(await d.poll()).toEqual({ credited: 1 });
    expect(await d.order(order.id)).toMatchObject({ status: 'processing', txn: replacement, flag: null });
    const rows = await d.depositsOf(order.id);
    expect(rows.map((r) => [r.txid, r.status]).sort()).toEqual(
      [
        [first, 'vanished'],
        [replacement, 'seen'],
      ].sort(),
    );
  });

  it('prices a second deposit to an order already under way on the sum, and flags it', async () => {
    const order = await d.placeSell(ada, 0.003);
    // Locked below today's price, so the extra is priced at the locked price too.
    const locked = (await d.order(order.id)).priceCents - 100_000n;
    await t.database.db.update(orders).set({ priceCents: locked }).where(eq(orders.id, order.id));
    await d.send(order.address, 0.003);
    await d.poll();
    const second = await d.send(order.address, 0.001);
    expect(await d.poll()).toEqual({ credited: 1 });
    const expected = quoteSellFromBtc({
      amountSats: 400_000n,
      buyPriceCents: locked,
      feeBps: DEMO_FEE_BPS,
      bankChargesCents: 0n,
    })!;
    const row = await d.order(order.id);
    expect(row).toMatchObject({
      status: 'processing',
      // The order now waits on the newer deposit's confirmations.
      txn: second,
      confirmations: 0,
      flag: 'overpaid',
      receivedSats: 400_000n,
      amountSats: 400_000n,
      valueCents: expected.valueCents,
    });
    expect(row.flagNote).toContain('2 deposits');
    expect((await d.depositsOf(order.id)).map((r) => r.valueSats).sort()).toEqual([100_000n, 300_000n]);
    expect(await d.moves(order.id)).toEqual([
      'null->pending',
      'pending->processing',
      'processing->processing',
    ]);
  });

  it('credits nobody for a deposit to an address that belongs to no order', async () => {
    const snapshot = () => t.database.db.select().from(orders);
    const before = await snapshot();
    bus.published.length = 0;
    const strangers = [
      deriveDepositAddress(DEMO_ACCOUNT_VPUB, 1_000_000, 'testnet'),
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
    ];
    for (const address of strangers) await d.send(address, 0.5);
    expect(await d.poll()).toEqual({ credited: 0 });
    for (const address of strangers) {
      expect(await t.database.db.select().from(deposits).where(eq(deposits.address, address))).toEqual([]);
    }
    expect(await snapshot()).toEqual(before);
    expect(bus.published).toEqual([]);
  });

  it('takes no deposit notice from a client: order update refuses a txn and changes nothing', async () => {
    const order = await d.placeSell(ada, 0.002);
    const before = await d.order(order.id);
    const forged = 'ab'.repeat(32);
    for (const payload of [
      { _id: order.id, txn: forged },
      { _id: order.id, txn: forged, status: 'processing' },
      { _id: order.id, status: 'processing' },
      { _id: order.id, bankTxn: 'X', txn: forged },
    ]) {
      const response = await t.request({
        method: 'POST',
        url: '/api/order/update',
        headers: ada.auth,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await d.order(order.id)).toEqual(before);
    expect(await d.depositsOf(order.id)).toEqual([]);
    expect(await t.database.db.select().from(deposits).where(eq(deposits.txid, forged))).toEqual([]);
  });

  it("does not undo another watcher's credit from a chain read made before the deposit arrived", async () => {
    // Watcher A reads the mempool (nothing for the order yet) and is held there; meanwhile the deposit
    // arrives and watcher B credits it. A then resumes with its old view of the chain.
    const chain = createSimulatedChain(t.database.db);
    let holdAddress: string | null = null;
    let reachedHold!: () => void;
    let releaseHold!: () => void;
    const reached = new Promise<void>((resolve) => (reachedHold = resolve));
    const released = new Promise<void>((resolve) => (releaseHold = resolve));
    const laggingChain: ChainApi = {
      kind: 'simulated',
      tipHeight: () => chain.tipHeight(),
      feeRate: () => chain.feeRate(),
      hasHistory: (address) => chain.hasHistory(address),
      feeRateFor: (tier) => chain.feeRateFor(tier),
      utxos: (address) => chain.utxos(address),
      broadcast: (txHex) => chain.broadcast(txHex),
      transactionStatus: (txid) => chain.transactionStatus(txid),
      blockHash: (height) => chain.blockHash(height),
      blockOutputs: (height, hash) => chain.blockOutputs(height, hash),
      async mempoolTxids() {
        const txids = await chain.mempoolTxids();
        if (holdAddress !== null) {
          holdAddress = null;
          reachedHold();
          await released;
        }
        return txids;
      },
      outputsOfTransactions: (txids) => chain.outputsOfTransactions(txids),
      outputsTo: (address) => chain.outputsTo(address),
    };
    const watcherA = createDepositWatcher({
      db: t.database.db,
      chain: laggingChain,
      prices: { current: () => null, isStale: () => true },
      notify: async () => undefined,
      confirmationsRequired: CONFIRMATIONS,
      log: t.app.log,
    });

    const order = await d.placeSell(bob, 0.002);
    holdAddress = order.address;
    const passA = watcherA.pollOnce();
    await reached;
    const txid = await d.send(order.address, 0.002);
    expect(await d.poll()).toEqual({ credited: 1 });
    releaseHold();
    await passA;

    expect(await d.order(order.id)).toMatchObject({ status: 'processing', txn: txid, flag: null });
    expect(await d.depositsOf(order.id)).toMatchObject([{ txid, status: 'seen' }]);
    expect(await d.moves(order.id)).toEqual(['null->pending', 'pending->processing']);
  });
});

describe.skipIf(!IS_POSTGRES)('deposit watchers in two server processes on one PostgreSQL database', () => {
  const busA = recordingBus();
  const busB = recordingBus();
  let a: TestApp;
  let b: TestApp;
  let ada: RegisteredCustomer;

  beforeAll(async () => {
    const overrides = { ...NO_BACKGROUND_POLLING, JWT_SECRET: randomBytes(32).toString('hex') };
    a = await createTestApp(overrides, undefined, { realtime: { bus: busA } });
    b = await createTestAppOnSameDatabase(a, overrides, { realtime: { bus: busB } });
    ada = await seller(a, 'ada.two-apps@example.com');
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('credits each deposit exactly once when both processes poll at the same time', async () => {
    const onA = driver(a);
    const onB = driver(b);
    const placed = [
      await onA.placeSell(ada, 0.002),
      await onB.placeSell(ada, 0.0025),
      await onA.placeSell(ada, 0.003, 'wire'),
    ];
    const amounts = [0.002, 0.0025, 0.003];
    for (const [i, order] of placed.entries()) await (i % 2 ? onA : onB).send(order.address, amounts[i]!);

    const results = await Promise.all([onA.poll(), onB.poll(), onA.poll(), onB.poll()]);
    expect(results.reduce((sum, r) => sum + r.credited, 0)).toBe(placed.length);
    for (const order of placed) {
      expect(await onA.depositsOf(order.id)).toHaveLength(1);
      expect(await onA.moves(order.id)).toEqual(['null->pending', 'pending->processing']);
      const announced = [...busA.published, ...busB.published].filter(
        (p) => p.event.type === 'new-transaction' && orderIdOf(p.event) === order.id,
      );
      expect(announced).toHaveLength(1);
    }

    // The second confirmation is announced once across both processes, too.
    const notices = await Promise.all(placed.map(async (o) => (await onA.notices(o.id)).length));
    await onA.mine(CONFIRMATIONS);
    await Promise.all([onA.poll(), onB.poll(), onA.poll(), onB.poll()]);
    for (const [i, order] of placed.entries()) {
      expect(await onA.order(order.id)).toMatchObject({ confirmations: CONFIRMATIONS });
      expect(await onA.notices(order.id)).toHaveLength(2 * notices[i]!);
    }
  });
});

/** A WebSocket client signed in as the customer, with its messages queued for the test. */
async function realtimeClient(url: string, token: string) {
  const socket = new WebSocket(url);
  const unread: unknown[] = [];
  const waiting: ((value: unknown) => void)[] = [];
  socket.on('message', (data) => {
    const value: unknown = JSON.parse((data as Buffer).toString('utf8'));
    const waiter = waiting.shift();
    if (waiter) waiter(value);
    else unread.push(value);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const next = () => {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      unread.length > 0 ? Promise.resolve(unread.shift()) : new Promise((resolve) => waiting.push(resolve)),
      new Promise((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('timed out waiting for a realtime message')), 5_000);
      }),
    ]).finally(() => clearTimeout(timer));
  };
  socket.send(JSON.stringify({ type: 'auth', token }));
  return { socket, next, send: (value: unknown) => socket.send(JSON.stringify(value)) };
}

describe.skipIf(!IS_POSTGRES || !REDIS_URL)('two processes with PostgreSQL and Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let urlA: string;
  const sockets: WebSocket[] = [];

  beforeAll(async () => {
    // Each app has its own Redis bus on a channel of this run's own, as two processes would.
    const channel = `offzero:test:${randomBytes(8).toString('hex')}`;
    const busA = createRedisEventBus(REDIS_URL!, silentLog, { channel });
    const busB = createRedisEventBus(REDIS_URL!, silentLog, { channel });
    await Promise.all([busA.ready(), busB.ready()]);
    const overrides = { ...NO_BACKGROUND_POLLING, JWT_SECRET: randomBytes(32).toString('hex') };
    a = await createTestApp(overrides, undefined, { realtime: { bus: busA } });
    b = await createTestAppOnSameDatabase(a, overrides, { realtime: { bus: busB } });
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    urlA = `ws://127.0.0.1:${(a.app.server.address() as AddressInfo).port}/api/realtime`;
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.terminate();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('credits once and pushes new-transaction to the socket held by the other process', async () => {
    const ada = await seller(a, 'ada.redis@example.com');
    const client = await realtimeClient(urlA, ada.token);
    sockets.push(client.socket);
    expect(await client.next()).toEqual({ type: 'ready', userId: ada.userId });

    const onA = driver(a);
    const onB = driver(b);
    const order = await onA.placeSell(ada, 0.0042);
    const txid = await onB.send(order.address, 0.0042);
    const results = await Promise.all([onA.poll(), onB.poll()]);
    expect(results.reduce((sum, r) => sum + r.credited, 0)).toBe(1);
    expect(await onA.depositsOf(order.id)).toHaveLength(1);
    expect(
      await a.database.db
        .select()
        .from(deposits)
        .where(and(eq(deposits.txid, txid), eq(deposits.vout, 0))),
    ).toHaveLength(1);

    // The socket on A hears the notice (from whichever process credited), then the status update.
    expect(await client.next()).toEqual({
      type: 'new-transaction',
      payload: { amount: satsToBtcNumber(420_000n), _id: order.id, txn: txid },
    });
    expect(await client.next()).toMatchObject({
      type: 'order-updated',
      payload: { order: { _id: order.id, status: 'processing', txn: txid } },
    });
    // Nothing else was sent: the answer to a ping is the very next message.
    client.send({ type: 'ping' });
    expect(await client.next()).toEqual({ type: 'pong' });

    // When only B's watcher sees a deposit, the notice still crosses to the socket held by A.
    const second = await onA.placeSell(ada, 0.0031);
    const secondTxid = await onB.send(second.address, 0.0031);
    expect(await onB.poll()).toEqual({ credited: 1 });
    expect(await client.next()).toEqual({
      type: 'new-transaction',
      payload: { amount: 0.0031, _id: second.id, txn: secondTxid },
    });
    expect(await onA.poll()).toEqual({ credited: 0 });
    expect(await onA.depositsOf(second.id)).toHaveLength(1);
  });
});
