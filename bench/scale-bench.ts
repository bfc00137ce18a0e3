/**
 * `npm run bench:scale`: the deposit watcher's pass with 1,000 and then 10,000 open deposit addresses
 * (sell orders waiting for their deposit), against a local server speaking the Esplora API, on the
 * embedded database and (with BENCH_DATABASE_URL or TEST_DATABASE_URL) on PostgreSQL. Each measured
 * pass has the same new chain activity: one new block of STRANGERS_PER_BLOCK transactions (plus what
 * waited in the mempool), MEMPOOL_STRANGERS new mempool transactions and DEPOSITS_PER_PASS deposits to
 * open orders. Prints the pass time and HTTP requests per pass at each size beside the target
 * (a pass within 30 s at 10,000 addresses); asserts nothing, stops by itself.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { createEsploraChain } from '../apps/server/src/chain/esplora-chain';
import { loadConfig } from '../apps/server/src/config/config';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/database';
import { deposits, depositScanBlocks, orders, users } from '../apps/server/src/db/schema';
import {
  startEsploraTestServer,
  strangerAddress,
  type EsploraTestServer,
} from '../apps/server/src/test/esplora-server';
import { withScratchDatabase } from './support/scratch-postgres';
import { median } from './support/statistics';

const SIZES = [1_000, 10_000];
const PASSES = Number(process.env.BENCH_PASSES ?? 3);
const STRANGERS_PER_BLOCK = Number(process.env.BENCH_BLOCK_TXS ?? 2_000);
const MEMPOOL_STRANGERS = 300;
const DEPOSITS_PER_PASS = 3;
const TARGET_MS = 30_000;
const DEPOSIT_SATS = 1_000_000;

interface Row {
  database: string;
  open: number;
  passes: number[];
  requests: number[];
  credited: number;
  sent: number;
}
const rows: Row[] = [];
const catchUps: { database: string; open: number; ms: number; requests: number }[] = [];

async function benchDatabase(label: string, database: DatabaseHandle): Promise<void> {
  const esplora: EsploraTestServer = await startEsploraTestServer();
  esplora.mine(3, STRANGERS_PER_BLOCK);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'offzero-scale-'));
  const config = loadConfig({
    APP_MODE: 'demo',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    WEB_DIST_DIR: path.join(dataDir, 'none'),
    LOG_LEVEL: 'silent',
    // No background jobs: the bench runs every pass itself.
    PROCESS_ROLE: 'web',
    CHAIN_POLL_SECONDS: '600',
  });
  const chain = createEsploraChain({ baseUrl: esplora.url, timeoutMs: 30_000 });
  const app = await buildApp({ config, database, logger: false, providers: { chain } });
  const db = database.db;
  try {
    // The first pass of a new installation only notes where the chain is.
    await app.depositWatcher.pollOnce();

    const [user] = await db
      .insert(users)
      .values({ email: `scale-${Date.now()}@example.com`, emailVerified: true, phoneNumber: '+12025550123' })
      .returning({ id: users.id });
    const addresses: { id: string; address: string }[] = [];
    let nextIndex = 10_000_000;
    for (const size of SIZES) {
      // Open sell orders up to `size`, each with its own deposit address, waiting for its deposit.
      const started = Date.now();
      while (addresses.length < size) {
        const batch = Array.from({ length: Math.min(1_000, size - addresses.length) }, () => {
          const depositIndex = nextIndex++;
          return {
            userId: user!.id,
            type: 'sell' as const,
            status: 'pending' as const,
            amountSats: BigInt(DEPOSIT_SATS),
            valueCents: 90_000n,
            priceCents: 9_500_000n,
            platformFeeCents: 1_000n,
            paymentMethod: 'zelle' as const,
            quoteExpiresAt: new Date(Date.now() + 24 * 3600_000),
            // Distinct testnet-format addresses: deriving 10,000 keys is not what is measured here.
            walletAddress: strangerAddress(),
            depositIndex,
          };
        });
        const inserted = await db
          .insert(orders)
          .values(batch)
          .returning({ id: orders.id, address: orders.walletAddress });
        addresses.push(...inserted.map((row) => ({ id: row.id, address: row.address! })));
      }
      console.log(
        `${label}: ${size} open deposit addresses ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );

      const row: Row = { database: label, open: size, passes: [], requests: [], credited: 0, sent: 0 };
      const paid = new Set<string>();
      for (let pass = 0; pass < PASSES; pass += 1) {
        // New activity since the last pass: a block confirming what waited, strangers in the mempool,
        // and a few customers paying their orders.
        esplora.mine(1, STRANGERS_PER_BLOCK);
        esplora.addStrangers(MEMPOOL_STRANGERS);
        for (let i = 0; i < DEPOSITS_PER_PASS; i += 1) {
          let order = addresses[Math.floor(Math.random() * addresses.length)]!;
          while (paid.has(order.id)) order = addresses[Math.floor(Math.random() * addresses.length)]!;
          paid.add(order.id);
          esplora.send([{ address: order.address, valueSats: DEPOSIT_SATS }]);
          row.sent += 1;
        }
        esplora.resetRequests();
        const t0 = performance.now();
        const { credited } = await app.depositWatcher.pollOnce();
        row.passes.push(performance.now() - t0);
        row.requests.push(esplora.requests.length);
        row.credited += credited;
      }
      // Every deposit sent was credited, once.
      const credits = await db
        .select({ orderId: deposits.orderId })
        .from(deposits)
        .where(inArray(deposits.orderId, [...paid]));
      if (credits.length !== paid.size) {
        console.log(`${label}: ${credits.length} of ${paid.size} deposits credited (expected all)`);
      }
      rows.push(row);
      if (size === SIZES.at(-1)) {
        // A watcher with no block matched yet (first run, or far behind) looks at each address on its
        // own once, as the previous watcher did on every pass.
        await db.delete(depositScanBlocks);
        esplora.mine(1, STRANGERS_PER_BLOCK);
        esplora.resetRequests();
        const t0 = performance.now();
        await app.depositWatcher.pollOnce();
        catchUps.push({
          database: label,
          open: size,
          ms: performance.now() - t0,
          requests: esplora.requests.length,
        });
      }
      // Those orders are served: the next size starts with the same number of open ones.
      for (const id of paid)
        await db
          .update(orders)
          .set({ status: 'cancelled', quoteExpiresAt: new Date(0) })
          .where(eq(orders.id, id));
      for (let i = addresses.length - 1; i >= 0; i -= 1)
        if (paid.has(addresses[i]!.id)) addresses.splice(i, 1);
    }
  } finally {
    await app.close();
    await esplora.close();
  }
}

async function main(): Promise<void> {
  await benchDatabase('embedded', await openDatabase({ dataDir: null }));

  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (postgresUrl) {
    await withScratchDatabase(postgresUrl, 'offzero_scale', async (url) =>
      benchDatabase('postgres', await openDatabase({ databaseUrl: url, dataDir: null })),
    );
  } else {
    console.log('PostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to include it.');
  }

  console.log(
    `\nDeposit watcher, ${PASSES} passes per size; each pass: 1 new block of ${STRANGERS_PER_BLOCK + DEPOSITS_PER_PASS}+ transactions, ` +
      `${MEMPOOL_STRANGERS + DEPOSITS_PER_PASS} new mempool transactions, ${DEPOSITS_PER_PASS} deposits. ` +
      `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'})\n`,
  );
  console.table(
    rows.map((row) => ({
      database: row.database,
      'open addresses': row.open,
      'pass ms (median)': Math.round(median(row.passes)),
      'pass ms (max)': Math.round(Math.max(...row.passes)),
      'HTTP requests per pass': median(row.requests),
      credited: `${row.credited}/${row.sent}`,
      target: row.open === 10_000 ? `≤ ${TARGET_MS / 1000} s` : '',
      result: row.open === 10_000 ? (Math.max(...row.passes) <= TARGET_MS ? 'pass' : 'short') : '',
    })),
  );
  for (const catchUp of catchUps) {
    console.log(
      `${catchUp.database}: one catch-up pass (first run or far behind: each of ${catchUp.open} addresses on its own) ` +
        `${(catchUp.ms / 1000).toFixed(1)} s, ${catchUp.requests} requests`,
    );
  }
  for (const database of new Set(rows.map((row) => row.database))) {
    const small = rows.find((row) => row.database === database && row.open === SIZES[0]);
    const large = rows.find((row) => row.database === database && row.open === SIZES[1]);
    if (!small || !large) continue;
    const growth = median(large.passes) / median(small.passes);
    console.log(
      `${database}: 10x the open addresses → pass time x${growth.toFixed(2)}, requests ${median(small.requests)} → ${median(large.requests)} ` +
        `(cost follows new transactions, not open addresses: ${median(large.requests) === median(small.requests) && growth < 3 ? 'pass' : 'short'})`,
    );
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
