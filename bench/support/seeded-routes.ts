/**
 * The routes a customer and the back office use most, on one database: OffZero started on it, the same
 * customer made on every database measured (a customer with 20 buys), so two databases differ only in
 * everyone else's rows, and the calls to time. Each call is timed alone, one after another, so a figure
 * is the cost of the call and not of a queue. The server runs in this process (a `web` process: no
 * background jobs), so an export's memory can be sampled while it streams.
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

export interface RouteTarget {
  /** Each route's name and one call of it. */
  calls: [route: string, call: () => Promise<Response>][];
  /** The exports' names and URLs, with the staff headers they need. */
  exports: [route: string, url: string][];
  adminHeaders: Record<string, string>;
  close(): Promise<void>;
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

/** Times `count` calls of `call` made one at a time into `latencies` (ms); `count` 0 warms up only. */
export async function timeCalls(call: () => Promise<Response>, count: number, latencies: number[] = []) {
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    const response = await call();
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${response.url}: ${response.status}`);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/**
 * Downloads a file, sampling this process's live heap every 500 ms while it streams (after a full
 * collection when node runs with --expose-gc: what is kept, not garbage waiting to be collected).
 */
export async function timeExport(
  url: string,
  headers: Record<string, string>,
): Promise<Omit<ExportFigure, 'route'>> {
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = setInterval(() => {
    global.gc?.();
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 500);
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

/** Starts OffZero on `databaseUrl`, makes the bench customer and its orders, and answers the calls. */
export async function startRouteTarget(databaseUrl: string): Promise<RouteTarget> {
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
  // A phone number of its own: the seeded database keeps the customers of earlier runs.
  const phone = `+1202555${String(1_000 + (Math.floor(Date.now() / 1000) % 9_000)).padStart(4, '0')}`;
  const customer = await signInCustomer(base, 0, phone);
  const admin = await adminAuth(base);
  const body = await buyBodies(base, customer.userId);
  const saveHeaders = { ...customer.auth, ...customer.csrfHeaders, 'content-type': 'application/json' };
  for (let i = 0; i < 20; i += 1) {
    await callApi(base, 'POST', '/api/order/save', JSON.parse(body()) as object, saveHeaders);
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
  const year = new Date().getUTCFullYear();
  return {
    calls: [
      ['GET /api/price', get('/api/price', {})],
      ['GET /api/order/list', get(`/api/order/list?userId=${customer.userId}`, customer.auth)],
      [
        'POST /api/order/save',
        () => fetch(`${base}/api/order/save`, { method: 'POST', headers: saveHeaders, body: body() }),
      ],
      ['GET /api/order/:id/timeline', get(`/api/order/${orderId}/timeline`, customer.auth)],
      ['GET /api/order/:id/receipt', get(`/api/order/${orderId}/receipt`, customer.auth)],
      [
        'admin: order search by short number',
        get(`/api/admin/orders?customer=${orderId.slice(0, 8)}`, admin),
      ],
      [
        'admin: order search by e-mail',
        get(`/api/admin/orders?customer=${encodeURIComponent(customer.email)}`, admin),
      ],
      ['admin: work queue', get('/api/admin/queue', admin)],
      ['admin: cases (20 newest)', get('/api/admin/cases?limit=20', admin)],
      ['admin: payout due list', get('/api/admin/payouts/due', admin)],
    ],
    exports: [['admin: 1099-DA export', `${base}/api/admin/tax/1099-da?year=${year}`]],
    adminHeaders: admin,
    close: () => app.close(),
  };
}
