/**
 * `npm run bench:tax-export`: one customer with 1,000 and then 10,000 completed orders in a year
 * downloads the yearly CSV (each layout) and the annual statement over real HTTP; prints the time and
 * the peak memory of the server process while the file is written. The files are streamed a page of
 * orders at a time, so the peak should barely move from 1,000 to 10,000 orders. Embedded database;
 * asserts nothing.
 *
 * The server runs as a `web` process (no background jobs), as a production web process does. The
 * orders are written straight into the table, so none has been through transaction monitoring (a real
 * order is checked when it is saved); with jobs running, the monitoring sweep would check all of them,
 * and on the embedded database (one connection, one thread) that starves the download being measured
 * until the client gives up: the connection resets and 408s of earlier runs. `BENCH_PROCESS_ROLE=all`
 * runs it with the jobs anyway.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/config';
import { openDatabase } from '../apps/server/src/db/database';
import { orders, users } from '../apps/server/src/db/schema';

const YEAR = new Date().getUTCFullYear();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'offzero-tax-bench-'));
const config = loadConfig({
  APP_MODE: 'demo',
  DATA_DIR: dataDir,
  JWT_SECRET: randomBytes(32).toString('hex'),
  WEB_DIST_DIR: path.join(dataDir, 'no-web'),
  LOG_LEVEL: 'silent',
  HOST: '127.0.0.1',
  PORT: '0',
  LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
  PROCESS_ROLE: process.env.BENCH_PROCESS_ROLE ?? 'web',
});
const database = await openDatabase({ dataDir: null });
const app = await buildApp({ config, database, logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const [user] = await database.db
  .insert(users)
  .values({ email: 'bench.tax@example.com', emailVerified: true, phoneVerified: true })
  .returning();
if (!user) throw new Error('no user');
const userId = user.id;
const { token } = await app.sessions.issue(user.id);

let inserted = 0;
async function growTo(count: number) {
  while (inserted < count) {
    const batch = Array.from({ length: Math.min(1000, count - inserted) }, (_, i) => {
      const n = inserted + i;
      const at = new Date(Date.UTC(YEAR, 0, 1) + n * 60_000);
      return {
        userId,
        type: n % 3 === 0 ? ('sell' as const) : ('buy' as const),
        status: 'completed' as const,
        amountSats: 100_000n + BigInt(n),
        valueCents: 8_000n + BigInt(n),
        priceCents: 7_900_000n,
        platformFeeCents: 120n,
        networkFeeCents: 40n,
        bankFeeCents: 0n,
        quoteExpiresAt: at,
        createdAt: at,
        completedAt: at,
        paymentMethod: 'zelle' as const,
        walletAddress: 'tb1qn9pd7k0nwl4d5xpyyrhcvtzuc9x7rxe3q9sd8h',
        txn: randomBytes(32).toString('hex'),
        bankTxn: `REF-${n}`,
      };
    });
    await database.db.insert(orders).values(batch);
    inserted += batch.length;
  }
}

/** Downloads one file, sampling this process's memory every 5 ms while it is written. */
async function download(url: string) {
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 5);
  const started = performance.now();
  const response = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
  let bytes = 0;
  const reader = response.body?.getReader();
  for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) {
    bytes += part.value.byteLength;
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  return {
    status: response.status,
    ms: Math.round(ms),
    kb: Math.round(bytes / 1024),
    heapGrowthMb: mb(peakHeap - before.heapUsed),
    peakRssMb: mb(peakRss),
  };
}

const results: Record<string, unknown>[] = [];
for (const count of (process.env.BENCH_TAX_ORDERS ?? '1000,10000').split(',').map(Number)) {
  console.log(`preparing ${count} orders…`);
  const preparing = performance.now();
  await growTo(count);
  console.log(`prepared in ${Math.round(performance.now() - preparing)} ms`);
  for (const url of [
    `/api/tax/export?year=${YEAR}&format=offzero`,
    `/api/tax/export?year=${YEAR}&format=koinly`,
    `/api/tax/export?year=${YEAR}&format=cointracker`,
    `/api/tax/statement?year=${YEAR}`,
  ]) {
    const result = { orders: count, file: url.replace(/^\/api\/tax\//, ''), ...(await download(url)) };
    // Printed as it comes, so a run cut short still shows what it measured.
    console.log(JSON.stringify(result));
    results.push(result);
  }
}
console.table(results);
await app.close();
