import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChainApiError } from '../../chain/chain-api';
import { createEsploraChain } from '../../chain/esplora-chain';
import { deposits, depositScanBlocks, orders, type OrderRow } from '../../db/schema';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../../test/accounts-helpers';
import { startEsploraTestServer, type EsploraTestServer } from '../../test/esplora-server';
import { fileW9, saveBank, saveZelle, sellOrder } from '../../test/sell-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';
import { deriveDepositAddress, DEMO_ACCOUNT_VPUB } from './deposit-address';
import { CATCH_UP_AFTER_BLOCKS, createDepositWatcher } from './deposit-watcher';

/**
 * The deposit watcher against a server speaking the Esplora API: it follows new blocks and the
 * mempool and matches their outputs against the watched deposit addresses, instead of asking about
 * every open address on every pass.
 */
describe('deposit watcher following blocks on an Esplora server', () => {
  let esplora: EsploraTestServer;
  let t: TestApp;
  let ada: RegisteredCustomer;

  beforeAll(async () => {
    esplora = await startEsploraTestServer({ startHeight: 2_500_000 });
    esplora.mine(2, 30);
    t = await createTestApp({ CHAIN_POLL_SECONDS: '600', DEPOSIT_CONFIRMATIONS: '2' }, undefined, {
      providers: { chain: createEsploraChain({ baseUrl: esplora.url }) },
    });
    ada = await registerVerifiedCustomer(t, 'ada.scan@example.com');
    await saveBank(t, ada);
    await fileW9(t, ada);
    await saveZelle(t, ada, 'ada.scan@example.com');
    // The first pass notes where the chain is.
    await t.app.depositWatcher.pollOnce();
  });
  afterAll(async () => {
    await t?.close();
    await esplora?.close();
  });
  beforeEach(() => esplora.resetRequests());

  const poll = () => t.app.depositWatcher.pollOnce();
  const order = async (id: string): Promise<OrderRow> => {
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    return row!;
  };
  const depositsOf = (orderId: string) =>
    t.database.db.select().from(deposits).where(eq(deposits.orderId, orderId));
  async function placeSell(amountBtc: number): Promise<{ id: string; address: string }> {
    const { payload } = await sellOrder(t, ada, amountBtc);
    const response = await t.request({ method: 'POST', url: '/api/order/save', headers: ada.auth, payload });
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json<{ order: { _id: string; walletAddress: { address: string } } }>().order;
    return { id: saved._id, address: saved.walletAddress.address };
  }
  const addressLookups = () => esplora.requests.filter((request) => request.includes('/address/'));

  it('finds a deposit in a new block among other transactions, without asking about any address', async () => {
    const placed = await Promise.all([placeSell(0.002), placeSell(0.003), placeSell(0.004)]);
    await poll();
    const txid = esplora.send([{ address: placed[1].address, valueSats: 300_000 }]);
    const height = esplora.mine(1, 60);
    esplora.resetRequests();

    expect(await poll()).toEqual({ credited: 1 });
    expect(await order(placed[1].id)).toMatchObject({ status: 'processing', txn: txid, confirmations: 1 });
    expect(await depositsOf(placed[1].id)).toMatchObject([
      { txid, vout: 0, blockHeight: height, confirmations: 1 },
    ]);
    for (const other of [placed[0], placed[2]]) expect(await depositsOf(other.id)).toEqual([]);
    expect(addressLookups()).toEqual([]);
    expect(esplora.requests).toContain(`GET /block-height/${height}`);

    // The next block counts a second confirmation from the tip alone: no request about the deposit.
    esplora.resetRequests();
    esplora.mine(1, 10);
    await poll();
    expect(await order(placed[1].id)).toMatchObject({ confirmations: 2 });
    expect(addressLookups()).toEqual([]);
    expect(esplora.requests.filter((request) => request.includes(txid))).toEqual([]);
  });

  it('credits a mempool deposit at once, then counts it when its block comes', async () => {
    const placed = await placeSell(0.005);
    const txid = esplora.send([{ address: placed.address, valueSats: 500_000 }]);
    expect(await poll()).toEqual({ credited: 1 });
    expect(await order(placed.id)).toMatchObject({ status: 'processing', txn: txid, confirmations: 0 });
    // Read once: the next pass does not ask about the same mempool transaction again.
    esplora.resetRequests();
    expect(await poll()).toEqual({ credited: 0 });
    expect(esplora.requests).not.toContain(`GET /tx/${txid}`);

    const height = esplora.mine(1, 5);
    await poll();
    expect(await depositsOf(placed.id)).toMatchObject([{ txid, blockHeight: height, confirmations: 1 }]);
    expect(await order(placed.id)).toMatchObject({ confirmations: 1 });
  });

  it('resumes after a restart from the last block it matched', async () => {
    const placed = await placeSell(0.006);
    await poll();
    const [last] = await t.database.db
      .select()
      .from(depositScanBlocks)
      .orderBy(sql`${depositScanBlocks.height} desc`)
      .limit(1);
    expect(last!.height).toBe(esplora.tipHeight());

    // While no watcher runs, three blocks come; the deposit is in the second.
    esplora.mine(1, 5);
    const txid = esplora.send([{ address: placed.address, valueSats: 600_000 }]);
    const depositHeight = esplora.mine(1, 5);
    esplora.mine(1, 5);

    // A new process: its own watcher and chain client, nothing in memory.
    const restarted = createDepositWatcher({
      db: t.database.db,
      chain: createEsploraChain({ baseUrl: esplora.url }),
      prices: { current: () => null, isStale: () => true },
      notify: async () => undefined,
      confirmationsRequired: 2,
      log: t.app.log,
    });
    esplora.resetRequests();
    expect(await restarted.pollOnce()).toEqual({ credited: 1 });
    expect(await order(placed.id)).toMatchObject({ status: 'processing', txn: txid, confirmations: 2 });
    expect(await depositsOf(placed.id)).toMatchObject([{ txid, blockHeight: depositHeight }]);
    // It checked the block it stopped at, then read exactly the three new ones.
    const heights = esplora.requests
      .map((request) => /^GET \/block-height\/(\d+)$/.exec(request)?.[1])
      .filter((height): height is string => height !== undefined)
      .map(Number);
    expect([...new Set(heights)].sort()).toEqual([
      last!.height,
      last!.height + 1,
      last!.height + 2,
      last!.height + 3,
    ]);
    expect(addressLookups()).toEqual([]);
  });

  it("does not credit an address's history from before its order", async () => {
    // The next order's address is known in advance (the next index of the sequence): coins sent to it
    // before the order exists are someone else's business.
    const result: unknown = await t.database.db.execute(
      sql`select last_value, is_called from deposit_index_seq`,
    );
    const sequence = (result as { rows: { last_value: string | number; is_called: boolean }[] }).rows[0]!;
    const nextIndex = Number(sequence.last_value) + (sequence.is_called ? 1 : 0);
    const address = deriveDepositAddress(DEMO_ACCOUNT_VPUB, nextIndex, 'testnet');
    const earlier = esplora.send([{ address, valueSats: 700_000 }]);
    const earlierHeight = esplora.mine(1, 5);
    expect(await poll()).toEqual({ credited: 0 });
    // That block was read a while before the order was placed.
    await t.database.db
      .update(depositScanBlocks)
      .set({ scannedAt: new Date(Date.now() - 3600_000) })
      .where(eq(depositScanBlocks.height, earlierHeight));

    const placed = await placeSell(0.001);
    expect(placed.address).toBe(address);
    expect(await poll()).toEqual({ credited: 0 });

    // Far behind, the watcher looks at every watched address on its own, which shows the old
    // payment too: still not the order's.
    esplora.mine(CATCH_UP_AFTER_BLOCKS + 1);
    esplora.resetRequests();
    expect(await poll()).toEqual({ credited: 0 });
    expect(addressLookups()).toContain(`GET /address/${address}/txs`);
    expect(await depositsOf(placed.id)).toEqual([]);
    expect((await order(placed.id)).status).toBe('pending');

    // The customer's own payment is credited, alone.
    const own = esplora.send([{ address, valueSats: 100_000 }]);
    expect(await poll()).toEqual({ credited: 1 });
    expect(await depositsOf(placed.id)).toMatchObject([{ txid: own, valueSats: 100_000n }]);
    expect(await order(placed.id)).toMatchObject({
      status: 'processing',
      receivedSats: 100_000n,
      flag: null,
    });
    expect(earlier).not.toBe(own);
  });

  it('takes the order back to pending when a reorganisation removes its confirmed deposit', async () => {
    const placed = await placeSell(0.0025);
    const txid = esplora.send([{ address: placed.address, valueSats: 250_000 }]);
    esplora.mine(1, 5);
    esplora.mine(1, 5);
    expect(await poll()).toEqual({ credited: 1 });
    expect(await order(placed.id)).toMatchObject({ status: 'processing', confirmations: 2 });

    // The two newest blocks are replaced; the deposit's transaction lost to a double spend.
    esplora.reorg(2, [txid]);
    await poll();
    expect(await depositsOf(placed.id)).toMatchObject([{ txid, status: 'vanished' }]);
    expect(await order(placed.id)).toMatchObject({ status: 'pending', flag: 'vanished_tx', txn: null });
  });

  it('finds a reorganisation again when the pass that found it failed half-way', async () => {
    const placed = await placeSell(0.0035);
    const txid = esplora.send([{ address: placed.address, valueSats: 350_000 }]);
    esplora.mine(1, 5);
    expect(await poll()).toEqual({ credited: 1 });

    esplora.reorg(1, [txid]);
    esplora.mine(1, 5);
    // This process's chain server fails while reading the new blocks.
    const real = createEsploraChain({ baseUrl: esplora.url });
    const failing = createDepositWatcher({
      db: t.database.db,
      chain: {
        ...real,
        blockOutputs: () => Promise.reject(new ChainApiError('Esplora answered HTTP 502 for GET /block/….')),
      },
      prices: { current: () => null, isStale: () => true },
      notify: async () => undefined,
      confirmationsRequired: 2,
      log: t.app.log,
    });
    await expect(failing.pollOnce()).rejects.toBeInstanceOf(ChainApiError);
    expect((await order(placed.id)).status).toBe('processing');

    // The next pass (here, the app's own watcher) still sees the replaced block.
    await poll();
    expect(await depositsOf(placed.id)).toMatchObject([{ txid, status: 'vanished' }]);
    expect(await order(placed.id)).toMatchObject({ status: 'pending', flag: 'vanished_tx' });
  });

  it('sees a deposit that a reorganisation sends back to the mempool as unconfirmed again', async () => {
    const placed = await placeSell(0.0015);
    const txid = esplora.send([{ address: placed.address, valueSats: 150_000 }]);
    esplora.mine(1, 5);
    await poll();
    expect(await order(placed.id)).toMatchObject({ status: 'processing', confirmations: 1 });

    esplora.reorg(1);
    await poll();
    expect(await depositsOf(placed.id)).toMatchObject([
      { txid, status: 'seen', blockHeight: null, confirmations: 0 },
    ]);
    expect(await order(placed.id)).toMatchObject({ status: 'processing', confirmations: 0 });

    const height = esplora.mine(1, 5);
    await poll();
    expect(await depositsOf(placed.id)).toMatchObject([{ txid, blockHeight: height, confirmations: 1 }]);
  });
});
