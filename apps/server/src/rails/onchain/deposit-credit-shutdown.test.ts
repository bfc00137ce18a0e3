import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChainApi } from '../../chain/chain-api';
import { createSimulatedChain } from '../../chain/simulated-chain';
import { shutDownGracefully } from '../../health/graceful-shutdown';
import { registerVerifiedCustomer } from '../../test/accounts-helpers';
import { saveBank, saveZelle, sellOrder, fileW9 } from '../../test/sell-helpers';
import { createTestApp, type TestApp } from '../../test/test-app';

const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';

/**
 * A SIGTERM while the deposit watcher credits a deposit: the process stops only once the credit is
 * committed whole (deposit row, order moved, its event and its notices), never half of it. On
 * PostgreSQL, where another connection can read what the stopped process left (the embedded database
 * lives and dies with its process).
 */
describe.skipIf(!IS_POSTGRES)('a stop signal during a deposit credit', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close().catch(() => undefined);
    t = undefined;
  });

  it('waits for the credit to commit whole, then stops', async () => {
    let holdAddress: string | null = null;
    let reachedHold!: () => void;
    let releaseHold!: () => void;
    const reached = new Promise<void>((resolve) => (reachedHold = resolve));
    const released = new Promise<void>((resolve) => (releaseHold = resolve));
    // The real (database-kept) demo chain, held right after the watcher read the deposit (from the
    // mempool, or from the address when it catches up), before it writes anything: the stop signal arrives while the credit is under way.
    let chain: ChainApi | null = null;
    const heldChain: ChainApi = {
      kind: 'simulated',
      tipHeight: () => chain!.tipHeight(),
      feeRate: () => chain!.feeRate(),
      hasHistory: (address) => chain!.hasHistory(address),
      feeRateFor: (tier) => chain!.feeRateFor(tier),
      utxos: (address) => chain!.utxos(address),
      broadcast: (txHex) => chain!.broadcast(txHex),
      transactionStatus: (txid) => chain!.transactionStatus(txid),
      blockHash: (height) => chain!.blockHash(height),
      blockOutputs: (height, hash) => chain!.blockOutputs(height, hash),
      mempoolTxids: () => chain!.mempoolTxids(),
      async outputsOfTransactions(txids) {
        const outputs = await chain!.outputsOfTransactions(txids);
        if (holdAddress !== null && outputs.some((output) => output.address === holdAddress)) {
          holdAddress = null;
          reachedHold();
          await released;
        }
        return outputs;
      },
      async outputsTo(address) {
        const outputs = await chain!.outputsTo(address);
        if (address === holdAddress && outputs.length > 0) {
          holdAddress = null;
          reachedHold();
          await released;
        }
        return outputs;
      },
    };
    t = await createTestApp({ CHAIN_POLL_SECONDS: '1' }, undefined, { providers: { chain: heldChain } });
    const app = t;
    chain = createSimulatedChain(app.database.db);
    const ada = await registerVerifiedCustomer(app, 'ada.stop@example.com');
    await saveBank(app, ada);
    await fileW9(app, ada);
    await saveZelle(app, ada, 'ada.stop@example.com');
    const { payload } = await sellOrder(app, ada, 0.01, 'zelle');
    const saved = await app.request({ method: 'POST', url: '/api/order/save', headers: ada.auth, payload });
    expect(saved.statusCode).toBe(200);
    const order = saved.json<{ order: { _id: string; walletAddress: { address: string } } }>().order;

    holdAddress = order.walletAddress.address;
    const { txid } = await createSimulatedChain(app.database.db).send(holdAddress, 1_000_000n);
    await reached;

    // What the server's SIGTERM handler does; the watcher's run is held mid-way meanwhile.
    let stopped = false;
    const stopping = shutDownGracefully(app.app, 0).then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stopped).toBe(false);
    releaseHold();
    await stopping;

    // Read back what the stopped process left, through a connection of our own where we can.
    const state = await readBack(app, order._id);
    expect(state.order).toMatchObject({ status: 'processing', txn: txid });
    expect(state.deposits).toEqual([{ txid, value_sats: '1000000' }]);
    expect(state.moves).toEqual(['null->pending', 'pending->processing']);
    expect(state.notices).toBeGreaterThanOrEqual(2);
  });
});

interface LeftState {
  order: { status: string; txn: string | null };
  deposits: { txid: string; value_sats: string }[];
  moves: string[];
  notices: number;
}

async function readBack(app: TestApp, orderId: string): Promise<LeftState> {
  const queries = {
    order: 'select status, txn from orders where id = $1',
    deposits: 'select txid, value_sats::text from deposits where order_id = $1',
    moves: `select coalesce(from_status::text, 'null') || '->' || to_status as move
              from order_events where order_id = $1 order by created_at, id`,
    notices: `select count(*)::int as n from outbox_events where event_key in
                (select 'order-event:' || id from order_events where order_id = $1)
                or payload::text like '%' || $1 || '%'`,
  };
  const client = new pg.Client({ connectionString: app.databaseUrl });
  await client.connect();
  try {
    const read = (text: string) => client.query(text, [orderId]).then((result) => result.rows);
    const [order] = await read(queries.order);
    const deposits = await read(queries.deposits);
    const moves = await read(queries.moves);
    const [notices] = await read(queries.notices);
    return {
      order,
      deposits,
      moves: moves.map((row) => row.move),
      notices: notices.n,
    };
  } finally {
    await client.end();
  }
}
