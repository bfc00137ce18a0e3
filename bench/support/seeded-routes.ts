/**
 * The routes a customer and the back office use most, timed on one database: each call alone, one after
 * another, so a figure is the cost of the call and not of a queue. The same customer and orders are made
 * on every database measured (a customer with 20 buys), so an empty database and a seeded one differ
 * only in everyone else's rows. The server runs in this process (a `web` process: no background jobs),
 * so an export's memory can be sampled while it streams.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config/config';
import { openDatabase } from '../../apps/server/src/db/database';
import { buyBodies, signInCustomer } from './bench-customer';
import { callApi, demoClient } from './demo-customer';
import { percentile } from './statistics';

export interface RouteFigure {
  route: string;
  p50: number;
  p95: number;
}

export interface ExportFigure {
  route: string;
  ms: number;
  kb: number;
  lines: number;
  /** Growth of this process's heap above where it stood before the download, at its highest. */
  peakHeapMb: number;
}

const ADMIN_EMAIL = 'admin@offzero.local';
const CALLS = Number(process.env.BENCH_SEEDED_CALLS ?? 40);
const WARM_UP = 5;

async function adminAuth(base: string): Promise<Record<string, string>> {
  const client = await demoClient(base);
  await client.call('POST', '/api/user/login-otp/send', { email: ADMIN_EMAIL }, client.csrfHeaders);
  const { token } = await client.call<{ token: string }>(
    'POST',
    '/api/user/login-otp/verify',
    { email: ADMIN_EMAIL, code: await client.codeFor(ADMIN_EMAIL) },
    client.csrfHeaders,
  );
  return { authorization: `Bearer ${token}` };
}

/** Latencies of `CALLS` calls made one at a time, after a short warm-up. */
async function timeCalls(call: () => Promise<Response>): Promise<{ p50: number; p95: number }> {
  const latencies: number[] = [];
  for (let i = 0; i < WARM_UP + CALLS; i += 1) {
    const started = performance.now();
    const response = await call();
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
    if (i >= WARM_UP) latencies.push(performance.now() - started);
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95) };
}

/** Downloads a file, sampling this process's heap every 5 ms while it streams. */
async function timeExport(url: string, headers: Record<string, string>): Promise<Omit<ExportFigure, 'route'>> {
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
  const started = performance.now();
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  let bytes = 0;
  let lines = 0;
  const reader = response.body!.getReader();
  for (let part = await reader.read(); !part.done; part = await reader.read()) {
    bytes += part.value.byteLength;
    for (const byte of part.value) if (byte === 10) lines += 1;
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  return { ms, kb: Math.round(bytes / 1024), lines, peakHeapMb: (peak - before) / 1024 / 1024 };
}

/** Starts OffZero on `databaseUrl`, makes the bench customer and times every route. */
export async function measureRoutes(
  databaseUrl: string,
): Promise<{ routes: RouteFigure[]; exports: ExportFigure[] }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'offzero-seeded-'));
  const settings = {
    APP_MODE: 'demo',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    WEB_DIST_DIR: path.join(dataDir, 'none'),
    LOG_LEVEL: 'error',
    HOST: '127.0.0.1',
    PROCESS_ROLE: 'web',
    LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    OTP_SENDS_PER_IP: '1000',
    MUTATIONS_PER_IP_PER_MINUTE: '10000000',
    MUTATIONS_PER_USER_PER_MINUTE: '10000000',
    CHAIN_POLL_SECONDS: '600',
  };
  // A web process quotes from the price a job-working process stored: one starts, stores it and stops.
  const fetcher = await buildApp({
    config: loadConfig({ ...settings, PROCESS_ROLE: 'all' }),
    database: await openDatabase({ databaseUrl, dataDir: null }),
    logger: false,
  });
  await fetcher.close();
  const database = await openDatabase({ databaseUrl, dataDir: null });
  const app = await buildApp({ config: loadConfig(settings), database, logger: false });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const customer = await signInCustomer(base);
    const admin = await adminAuth(base);
    const body = await buyBodies(base, customer.userId);
    const saveHeaders = { ...customer.auth, ...customer.csrfHeaders, 'content-type': 'application/json' };
    // The first buy answers the scam shield's question (docs/design.md, "Places and the scam shield").
    const scamCheck = { ownWallet: true, someoneAskedMe: false };
    for (let i = 0; i < 20; i += 1) {
      const order = { ...(JSON.parse(body()) as object), ...(i === 0 ? { scamCheck } : {}) };
      await callApi(base, 'POST', '/api/order/save', order, saveHeaders);
    }
    const { result } = await callApi<{ result: { orders: { _id: string }[] } }>(
      base,
      'GET',
      `/api/order/list?userId=${customer.userId}`,
      undefined,
      customer.auth,
    );
    const orderId = result.orders[0]!._id;
    const get = (url: string, headers: Record<string, string>) => () => fetch(`${base}${url}`, { headers });
    const calls: [string, () => Promise<Response>][] = [
      ['GET /api/price', get('/api/price', {})],
      ['GET /api/order/list', get(`/api/order/list?userId=${customer.userId}`, customer.auth)],
      [
        'POST /api/order/save',
        () => fetch(`${base}/api/order/save`, { method: 'POST', headers: saveHeaders, body: body() }),
      ],
      ['GET /api/order/:id/timeline', get(`/api/order/${orderId}/timeline`, customer.auth)],
      ['GET /api/order/:id/receipt', get(`/api/order/${orderId}/receipt`, customer.auth)],
      ['admin: order search by short number', get(`/api/admin/orders?customer=${orderId.slice(0, 8)}`, admin)],
      [
        'admin: order search by e-mail',
        get(`/api/admin/orders?customer=${encodeURIComponent(customer.email)}`, admin),
      ],
      ['admin: work queue', get('/api/admin/queue', admin)],
      ['admin: cases', get('/api/admin/cases', admin)],
      ['admin: payout due list', get('/api/admin/payouts/due', admin)],
    ];
    const routes: RouteFigure[] = [];
    for (const [route, call] of calls) routes.push({ route, ...(await timeCalls(call)) });
    const year = new Date().getUTCFullYear();
    const exports: ExportFigure[] = [];
    for (const [route, url] of [['admin: 1099-DA export', `/api/admin/tax/1099-da?year=${year}`]] as const) {
      exports.push({ route, ...(await timeExport(`${base}${url}`, admin)) });
    }
    return { routes, exports };
  } finally {
    await app.close();
  }
}
