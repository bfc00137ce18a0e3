import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulatedChain, type SimulatedChain } from '../chain/simulated-chain';
import { orders, payouts } from '../db/schema';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { createCrashingChain } from '../test/crashing-chain';
import { placeConfirmedBuyOrder } from '../test/buy-helpers';
import { saveBank, saveZelle, sellOrder, fileW9 } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

/**
 * Claim before send (docs/design.md): the payout intent commits before any money moves, so parallel
 * calls pay once and a retry after a crash never pays again.
 */
let t: TestApp;
let chain: SimulatedChain;
let admin: RegisteredCustomer;
let ada: RegisteredCustomer;
/** The app's chain: the next send can go out and then fail, as a crash between send and record. */
const crashing = createCrashingChain();

beforeAll(async () => {
  t = await createTestApp({ BITCOIN_NETWORK: 'testnet' }, undefined, {
    providers: { chain: crashing.chain },
  });
  chain = createSimulatedChain(t.database.db);
  crashing.attach(chain);
  admin = await logIn(t, 'admin@offzero.local');
  ada = await registerVerifiedCustomer(t, 'ada.payouts@example.com');
  await saveBank(t, ada);
  await fileW9(t, ada);
  await saveZelle(t, ada, 'ada.payouts@example.com');
});
afterAll(async () => t.close());

const asAdmin = (url: string, payload: object = {}) =>
  t.request({ method: 'POST', url, headers: admin.auth, payload });

const orderRow = async (id: string) => {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  return row!;
};
/** Every buy here pays the same test wallet: the chain's transactions to it. */
const sentTo = async (address: string | null) => (await chain.outputsTo(address!)).length;
const payoutsOf = (orderId: string) =>
  t.database.db.select().from(payouts).where(eq(payouts.orderId, orderId));

/** A buy paid by Zelle and marked received: its bitcoin is due. */
async function paidBuy(valueUsd: number): Promise<string> {
  const orderId = await placeConfirmedBuyOrder(t, ada, valueUsd);
  const paid = await t.request({
    method: 'POST',
    url: '/api/order/update',
    headers: ada.auth,
    payload: { _id: orderId, payment: { method: 'zelle' }, status: 'processing' },
  });
  expect(paid.statusCode).toBe(200);
  expect((await asAdmin(`/api/admin/orders/${orderId}/mark-paid`)).statusCode).toBe(200);
  return orderId;
}

/** A sell whose deposit arrived and confirmed: its dollars are due. */
async function confirmedSell(amountBtc: number): Promise<string> {
  const { payload } = await sellOrder(t, ada, amountBtc);
  const saved = await t.request({ method: 'POST', url: '/api/order/save', headers: ada.auth, payload });
  expect(saved.statusCode).toBe(200);
  const order = saved.json().order as { _id: string; walletAddress: { address: string } };
  await chain.send(order.walletAddress.address, BigInt(Math.round(amountBtc * 1e8)));
  await chain.mine(1);
  await t.app.depositWatcher.pollOnce();
  const row = await orderRow(order._id);
  expect(row.status).toBe('processing');
  return order._id;
}

describe('bitcoin payouts (send-btc)', () => {
  it('sends once when 20 calls arrive at once: one chain transaction, one payout', async () => {
    const orderId = await paidBuy(75);
    const { walletAddress } = await orderRow(orderId);
    const before = await sentTo(walletAddress);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => asAdmin(`/api/admin/orders/${orderId}/send-btc`)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await sentTo(walletAddress)).toBe(before + 1);
    const [payout] = await payoutsOf(orderId);
    const row = await orderRow(orderId);
    expect(row.status).toBe('completed');
    expect(payout).toMatchObject({ state: 'settled', txid: row.txn, vout: 0, kind: 'btc' });
  });

  it('never sends again after a failure between send and record; staff record the txid found on the chain', async () => {
    const orderId = await paidBuy(76);
    const { walletAddress } = await orderRow(orderId);
    const before = await sentTo(walletAddress);
    crashing.failAfterNextSend();
    const crashed = await asAdmin(`/api/admin/orders/${orderId}/send-btc`);
    expect(crashed.statusCode).toBe(503);
    expect(crashed.json().message).toMatch(/may or may not have been sent.*check the chain/);
    expect(await sentTo(walletAddress)).toBe(before + 1);

    for (let attempt = 0; attempt < 3; attempt += 1) {
      const retry = await asAdmin(`/api/admin/orders/${orderId}/send-btc`);
      expect(retry.statusCode).toBe(409);
      expect(retry.json().message).toMatch(/already in flight.*check the chain/);
    }
    expect(await sentTo(walletAddress)).toBe(before + 1);
    expect((await orderRow(orderId)).status).toBe('processing');

    // The back office's order detail shows the payout in flight.
    const detail = (
      await t.request({ method: 'GET', url: `/api/admin/orders/${orderId}`, headers: admin.auth })
    ).json();
    expect(detail.timeline.map((e: { reason: string }) => e.reason)).toContain(
      `bitcoin payout in flight: sending to ${walletAddress}`,
    );

    const output = (await chain.outputsTo(walletAddress!)).at(-1);
    const recorded = await asAdmin(`/api/admin/orders/${orderId}/payout-btc`, {
      txid: output!.txid,
      vout: 0,
    });
    expect(recorded.statusCode).toBe(200);
    expect(recorded.json().order).toMatchObject({ status: 'completed', txn: output!.txid });
    expect(await payoutsOf(orderId)).toMatchObject([{ state: 'settled', txid: output!.txid, vout: 0 }]);
    expect((await asAdmin(`/api/admin/orders/${orderId}/send-btc`)).statusCode).toBe(409);
    expect(await sentTo(walletAddress)).toBe(before + 1);
  });

  it('frees the Idempotency-Key of a failed send, and the retry with it still does not send again', async () => {
    const orderId = await paidBuy(80);
    const { walletAddress } = await orderRow(orderId);
    const before = await sentTo(walletAddress);
    const withKey = () =>
      t.request({
        method: 'POST',
        url: `/api/admin/orders/${orderId}/send-btc`,
        headers: { ...admin.auth, 'idempotency-key': 'send-btc-crash-1' },
        payload: {},
      });
    crashing.failAfterNextSend();
    expect((await withKey()).statusCode).toBe(503);
    // Not a replay of the 503: the call runs again, finds the payout in flight and sends nothing.
    const retry = await withKey();
    expect(retry.statusCode).toBe(409);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.json().message).toMatch(/already in flight/);
    expect(await sentTo(walletAddress)).toBe(before + 1);
    // That answer is kept: the same key now replays it.
    const replayed = await withKey();
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toBe(retry.body);
  });

  it('pays one order per transaction output: recording a txid:vout already used answers 409', async () => {
    const first = await paidBuy(77);
    const second = await paidBuy(78);
    const txid = 'c'.repeat(64);
    expect((await asAdmin(`/api/admin/orders/${first}/payout-btc`, { txid, vout: 1 })).statusCode).toBe(200);
    const reused = await asAdmin(`/api/admin/orders/${second}/payout-btc`, {
      txid: txid.toUpperCase(),
      vout: 1,
    });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().message).toBe(
      'This transaction output already pays another order. Check the txid and vout.',
    );
    expect((await orderRow(second)).status).toBe('processing');
    // Another output of the same transaction (a batch) may pay it.
    expect((await asAdmin(`/api/admin/orders/${second}/payout-btc`, { txid, vout: 2 })).statusCode).toBe(200);
  });
});

describe('dollar payouts (payout-usd)', () => {
  it('pays once when 20 calls arrive at once', async () => {
    const orderId = await confirmedSell(0.002);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        asAdmin(`/api/admin/orders/${orderId}/payout-usd`, { reference: `ZELLE-${1000 + i}` }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const paid = await payoutsOf(orderId);
    expect(paid).toHaveLength(1);
    expect((await orderRow(orderId)).bankTxn).toBe(paid[0]!.reference);
  });
});

describe('flagged orders', () => {
  it('refuses every payout path with 409 "Resolve the flag first." and sends nothing', async () => {
    const buy = await paidBuy(79);
    const sell = await confirmedSell(0.0021);
    for (const id of [buy, sell]) {
      await t.database.db
        .update(orders)
        .set({ flag: 'over_limit', flagNote: 'held' })
        .where(eq(orders.id, id));
    }
    const { walletAddress } = await orderRow(buy);
    const before = await sentTo(walletAddress);
    const calls = [
      asAdmin(`/api/admin/orders/${buy}/send-btc`),
      asAdmin(`/api/admin/orders/${buy}/payout-btc`, { txid: 'd'.repeat(64) }),
      asAdmin(`/api/admin/orders/${sell}/payout-usd`, { reference: 'ZELLE-FLAG' }),
    ];
    for (const answer of await Promise.all(calls)) {
      expect(answer.statusCode).toBe(409);
      expect(answer.json().message).toBe('Resolve the flag first.');
    }
    expect(await sentTo(walletAddress)).toBe(before);
    expect(await payoutsOf(buy)).toEqual([]);
    expect(await payoutsOf(sell)).toEqual([]);
    expect((await orderRow(buy)).status).toBe('processing');
    expect((await orderRow(sell)).status).toBe('processing');
  });
});
