/**
 * `npm run bench`: requests per second and latency percentiles of GET /api/price, GET /api/order/list
 * and POST /api/order/save, on the embedded database and (with BENCH_DATABASE_URL or
 * TEST_DATABASE_URL) on PostgreSQL, each beside a bare Fastify hello-world measured in the same run.
 * Prints figures; asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { btcNumberToSats, centsToUsdNumber, satsToBtcNumber, usdNumberToCents } from '@offzero/shared/money/money';
import { quoteBuyFromUsd } from '@offzero/shared/quotes/quote';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config/config';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/database';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;
const WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';

interface Row {
  database: string;
  endpoint: string;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  errors: number;
}
const rows: Row[] = [];

async function measure(database: string, endpoint: string, options: autocannon.Options): Promise<void> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_SECONDS, ...options });
  rows.push({
    database,
    endpoint,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  });
}

async function helloWorld(database: string): Promise<void> {
  const bare = Fastify();
  bare.get('/', async () => ({ hello: 'world' }));
  const address = await bare.listen({ port: 0, host: '127.0.0.1' });
  await measure(database, 'bare Fastify hello-world', { url: address });
  await bare.close();
}

async function benchOffZero(label: string, database: DatabaseHandle): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'offzero-bench-'));
  const config = loadConfig({
    APP_MODE: 'demo',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    WEB_DIST_DIR: path.join(dataDir, 'none'),
    LOG_LEVEL: 'silent',
    OTP_SENDS_PER_IP: '1000',
    CHAIN_POLL_SECONDS: '600',
  });
  const app = await buildApp({ config, database, logger: false });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });

  // A trade-ready customer, signed in through the same calls a browser makes.
  const csrf = await app.inject({ method: 'GET', url: '/api/csrf' });
  const csrfToken = csrf.json<{ _csrf: string }>()._csrf;
  const cookie = `offzero_csrf=${csrfToken}`;
  const post = (url: string, payload: object, extra: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload, headers: { 'x-csrf-token': csrfToken, cookie, ...extra } });
  const codeFor = async (to: string) =>
    app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` }).then((r) => r.json<{ messages: { code: string }[] }>().messages[0]!.code);
  const email = `bench-${Date.now()}@example.com`;
  const phone = '+12025550199';
  await post('/api/verification/email/otp', { email, purpose: 'new account' });
  const { registrationToken } = (await post('/api/verification/verify/otp', { email, code: await codeFor(email) })).json<{ registrationToken: string }>();
  await post('/api/verification/phone/otp', { email, phone, registrationToken });
  const session = (await post('/api/verification/verify/phone', { email, phone, registrationToken, code: await codeFor(phone) })).json<{ token: string; user: { _id: string } }>();
  const userId = session.user._id;
  await post('/api/dev/kyc/decide', { userId, status: 'GREEN' });
  const auth = { authorization: `Bearer ${session.token}` };

  const price = (await app.inject({ method: 'GET', url: '/api/price' })).json<{ sellPrice: number; networkFee: number }>();
  const quote = quoteBuyFromUsd({
    valueCents: usdNumberToCents(100),
    sellPriceCents: usdNumberToCents(price.sellPrice),
    feeBps: 150,
    networkFeeSats: btcNumberToSats(price.networkFee),
  })!;
  const order = {
    userId,
    pair: 'BTC-USD',
    type: 'buy',
    amount: satsToBtcNumber(quote.amountSats),
    value: 100,
    price: price.sellPrice,
    platformFee: centsToUsdNumber(quote.platformFeeCents),
    networkFee: centsToUsdNumber(quote.networkFeeCents),
    walletAddress: WALLET,
  };
  // Some orders to list.
  for (let i = 0; i < 20; i += 1) await post('/api/order/save', order, auth);

  await measure(label, 'GET /api/price', { url: `${base}/api/price` });
  await measure(label, 'GET /api/order/list', { url: `${base}/api/order/list?userId=${userId}&limit=5`, headers: auth });
  await measure(label, 'POST /api/order/save', {
    url: `${base}/api/order/save`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie },
    body: JSON.stringify(order),
  });
  await app.close();
}

async function main(): Promise<void> {
  await helloWorld('embedded');
  await benchOffZero('embedded', await openDatabase({ dataDir: null }));

  const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (postgresUrl) {
    const name = `offzero_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    await helloWorld('postgres');
    await benchOffZero('postgres', await openDatabase({ databaseUrl: url.toString(), dataDir: null }));
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  } else {
    console.log('PostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to include it.');
  }

  console.log(`\n${CONNECTIONS} connections, ${DURATION_SECONDS} s each, on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'})\n`);
  console.table(rows.map((r) => ({ database: r.database, endpoint: r.endpoint, 'req/s': r.rps, 'p50 ms': r.p50, 'p90 ms': r.p90, 'p99 ms': r.p99, 'non-2xx': r.errors })));
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
