/**
 * `npm run bench`: OffZero's API beside a bare Fastify, measured in the same run, on the embedded
 * database and (with BENCH_DATABASE_URL or TEST_DATABASE_URL) on PostgreSQL. Each server runs in a
 * process of its own (bench/bench-server.ts) and this process only generates the load (autocannon),
 * all on 127.0.0.1. Prints every target of the API with its measured value and pass or short; asserts
 * nothing (timed figures depend on the machine).
 *
 * Targets: GET /api/price ≥ 80 % of a bare hello-world's requests per second; the signed-in
 * GET /api/order/list ≥ 70 % of a bare route running the same query through the same driver;
 * POST /api/order/save ≥ 50 % of a bare route doing the same inserts; p99 ≤ 25 ms at 10 connections on
 * PostgreSQL; on the embedded database, 100 connections for 20 s with no timeout and no error.
 * Each ratio is the median of BENCH_ROUNDS (default 4) turns in which the product and its bare
 * counterpart are loaded one after the other (compare); p50 and p99 are over every request of the
 * turns. Beside each figure: the server process's CPU time per request, read from /proc.
 *
 * BENCH_SECONDS (default 8) sets each measurement's length; BENCH_DATABASES=embedded or =postgres
 * measures one database only; BENCH_ONLY=price,list,save,stress (any of them) measures those only;
 * BENCH_CPU_PROF=<dir> writes a CPU profile
 * of every server process there (open it in Chrome's DevTools).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  btcNumberToSats,
  centsToUsdNumber,
  satsToBtcNumber,
  usdNumberToCents,
} from '@offzero/shared/money/money';
import { quoteBuyFromUsd } from '@offzero/shared/quotes/quote';
import { settingsUpdateSchema } from '@offzero/shared/api/admin-settings';
import { forkServerProcess, type ServerProcess } from '../apps/server/src/test/server-process';
import { callApi, demoClient, registerDemoCustomer, type DemoCustomer } from './support/demo-customer';
import { withScratchDatabase } from './support/scratch-postgres';
import { median, percentile } from './support/statistics';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECTIONS = 10;
const STRESS_CONNECTIONS = 100;
const STRESS_SECONDS = 20;
const P99_TARGET_MS = 25;
const WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';
const ADMIN_EMAIL = 'admin@offzero.local';
/** The whole run stops after this, whatever happens. */
const RUN_TIMEOUT_MS = 15 * 60_000;
const SERVER_START_TIMEOUT_MS = 180_000;

const here = path.dirname(fileURLToPath(import.meta.url));

const PARTS = ['price', 'list', 'save', 'stress'] as const;
const onlyParts = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const unknownPart = onlyParts?.find((part) => !(PARTS as readonly string[]).includes(part));
if (unknownPart !== undefined) throw new Error(`BENCH_ONLY: "${unknownPart}" is none of ${PARTS.join(', ')}`);
/** Whether this run measures `part` (all of them unless BENCH_ONLY names some). */
const measures = (part: (typeof PARTS)[number]) => !onlyParts || onlyParts.includes(part);

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  requests: number;
  /** The server process's CPU time (user and system) per answered request; null where unreadable. */
  serverCpuMicrosPerRequest: number | null;
}
interface Target {
  database: string;
  target: string;
  measured: string;
  pass: boolean;
}
const figures: { database: string; server: string; endpoint: string; m: Measured }[] = [];
const targets: Target[] = [];

// ---------------------------------------------------------------------------------------------------
// Servers in child processes

function startServer(kind: 'product' | 'bare', database: string): Promise<ServerProcess> {
  const profileDir = process.env.BENCH_CPU_PROF;
  return forkServerProcess({
    entry: path.join(here, 'bench-server.ts'),
    args: [kind],
    execArgv: profileDir
      ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${kind}-${Date.now()}.cpuprofile`]
      : [],
    env: { ...process.env, BENCH_DB: database },
    startTimeoutMs: SERVER_START_TIMEOUT_MS,
    name: `${kind} server`,
  });
}

// ---------------------------------------------------------------------------------------------------
// Load, in rounds that take turns between the two servers

/** A server under load with one kind of request (or one mix of them); 10 connections unless it says. */
interface Side {
  server: ServerProcess;
  endpoint: string;
  options: autocannon.Options;
}

interface Slice {
  seconds: number;
  requests: number;
  errors: number;
  timeouts: number;
  latenciesMs: number[];
  /** How many answers of each status. */
  statusCounts: Record<string, number>;
  /** CPU time the server process spent in the slice, user and system, in microseconds (null: unreadable). */
  serverCpuMicros: number | null;
}

/** The CPU time of a process so far, in microseconds, from /proc (Linux); null where it cannot be read. */
function processCpuMicros(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, fields 14 and 15 of stat(5), counted in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

async function loadSlice(side: Side, seconds: number): Promise<Slice> {
  const cpuBefore = processCpuMicros(side.server.pid);
  const latenciesMs: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { connections: CONNECTIONS, duration: seconds, ...side.options },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, ms) => latenciesMs.push(ms));
  });
  const cpuAfter = processCpuMicros(side.server.pid);
  return {
    seconds: result.duration,
    requests: result.requests.total,
    errors: result.non2xx + result.errors,
    timeouts: result.timeouts,
    latenciesMs,
    statusCounts: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats?.count ?? 0]),
    ),
    serverCpuMicros: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
  };
}

function summarise(slices: readonly Slice[]): Measured {
  const seconds = slices.reduce((sum, slice) => sum + slice.seconds, 0);
  const requests = slices.reduce((sum, slice) => sum + slice.requests, 0);
  const latencies = slices.flatMap((slice) => slice.latenciesMs).sort((a, b) => a - b);
  let cpuMicros: number | null = 0;
  for (const slice of slices) {
    cpuMicros =
      cpuMicros === null || slice.serverCpuMicros === null ? null : cpuMicros + slice.serverCpuMicros;
  }
  return {
    rps: seconds === 0 ? 0 : Math.round(requests / seconds),
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors: slices.reduce((sum, slice) => sum + slice.errors, 0),
    timeouts: slices.reduce((sum, slice) => sum + slice.timeouts, 0),
    requests,
    serverCpuMicrosPerRequest: cpuMicros !== null && requests > 0 ? cpuMicros / requests : null,
  };
}

/**
 * The product beside its bare counterpart: a short warm-up of each (the JIT and the database's
 * caches, not the figure, pay for the first requests), then ROUNDS rounds in which each server takes
 * its turn under the same load, first one then the other, alternately. This machine's speed drifts by
 * tens of percent within a minute; measuring the two side by side in short turns, and taking the
 * median of each round's ratio, compares them at the same moments rather than a minute apart.
 */
async function compare(
  database: string,
  name: string,
  bare: Side,
  product: Side,
  atLeast: number,
): Promise<{ product: Measured; bare: Measured }> {
  for (const side of [bare, product]) await loadSlice(side, 1);
  const seconds = DURATION_SECONDS / ROUNDS;
  const bareSlices: Slice[] = [];
  const productSlices: Slice[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round % 2 === 0) {
      bareSlices.push(await loadSlice(bare, seconds));
      productSlices.push(await loadSlice(product, seconds));
    } else {
      productSlices.push(await loadSlice(product, seconds));
      bareSlices.push(await loadSlice(bare, seconds));
    }
  }
  const rate = (slice: Slice) => (slice.seconds === 0 ? 0 : slice.requests / slice.seconds);
  const ratios = productSlices.map((slice, round) => {
    const bareRate = rate(bareSlices[round]!);
    return bareRate === 0 ? 0 : rate(slice) / bareRate;
  });
  const value = median(ratios);
  const bareFigure = summarise(bareSlices);
  const productFigure = summarise(productSlices);
  figures.push({ database, server: 'bare', endpoint: bare.endpoint, m: bareFigure });
  figures.push({ database, server: 'product', endpoint: product.endpoint, m: productFigure });
  const rounds = ratios.map((ratio) => Math.round(ratio * 100)).join(', ');
  targets.push({
    database,
    target: `${name} ≥ ${Math.round(atLeast * 100)} % of bare`,
    measured: `${Math.round(value * 100)} % (rounds: ${rounds}; ${productFigure.rps} / ${bareFigure.rps} req/s)`,
    pass: value >= atLeast && productFigure.errors === 0 && bareFigure.errors === 0,
  });
  return { product: productFigure, bare: bareFigure };
}

// ---------------------------------------------------------------------------------------------------
// The product's customer, signed in through the calls a browser makes

type Customer = DemoCustomer;

async function signInCustomer(base: string, index = 0): Promise<Customer> {
  const client = await demoClient(base);
  if (index === 0) {
    // The demo admin lifts the trading limits: thousands of saves would pass a real customer's.
    await client.call('POST', '/api/user/login-otp/send', { email: ADMIN_EMAIL }, client.csrfHeaders);
    const admin = await client.call<{ token: string }>(
      'POST',
      '/api/user/login-otp/verify',
      { email: ADMIN_EMAIL, code: await client.codeFor(ADMIN_EMAIL) },
      client.csrfHeaders,
    );
    const adminAuth = { authorization: `Bearer ${admin.token}` };
    const { settings } = await callApi<{ settings: Record<string, unknown> }>(
      base,
      'GET',
      '/api/admin/settings',
      undefined,
      adminAuth,
    );
    const huge = { day: 1_000_000_000, week: 1_000_000_000, month: 1_000_000_000 };
    const update = pickShape(settingsUpdateSchema, { ...settings, limits: { tier1: huge, tier2: huge } });
    await callApi(base, 'PUT', '/api/admin/settings', update as object, {
      ...client.csrfHeaders,
      ...adminAuth,
    });
  }
  return registerDemoCustomer(client, {
    email: `bench-${Date.now()}-${index}@example.com`,
    phone: `+1202555${String(100 + index).padStart(4, '0')}`,
  });
}

/** Only the keys a zod object schema names, at every depth (the settings answer has more). */
function pickShape(schema: unknown, value: unknown): unknown {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  const inner = (schema as { unwrap?: () => unknown }).unwrap;
  if (!shape && inner) return pickShape(inner.call(schema), value);
  if (!shape || value === null || typeof value !== 'object') return value;
  const picked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) picked[key] = pickShape(field, item);
  }
  return picked;
}

/** Save bodies, each of a different value (the same buy within 10 s would answer the first order). */
async function buyBodies(base: string, userId: string): Promise<() => string> {
  const price = await callApi<{ sellPrice: number; networkFee: number }>(base, 'GET', '/api/price');
  let next = 0;
  return () => {
    next += 1;
    const valueCents = usdNumberToCents(100) + BigInt(next % 900_000);
    const quote = quoteBuyFromUsd({
      valueCents: valueCents,
      sellPriceCents: usdNumberToCents(price.sellPrice),
      feeBps: 150,
      networkFeeSats: btcNumberToSats(price.networkFee),
    })!;
    return JSON.stringify({
      userId,
      pair: 'BTC-USD',
      type: 'buy',
      amount: satsToBtcNumber(quote.amountSats),
      value: centsToUsdNumber(valueCents),
      price: price.sellPrice,
      platformFee: centsToUsdNumber(quote.platformFeeCents),
      networkFee: centsToUsdNumber(quote.networkFeeCents),
      walletAddress: WALLET,
    });
  };
}

// ---------------------------------------------------------------------------------------------------
// One database

async function benchDatabase(label: string, database: string): Promise<void> {
  console.log(`\n${label}: starting the servers…`);
  const bare = await startServer('bare', database);
  const product = await startServer('product', database);
  try {
    const customer = await signInCustomer(product.base);
    const body = await buyBodies(product.base, customer.userId);
    const saveHeaders = { ...customer.auth, ...customer.csrfHeaders, 'content-type': 'application/json' };
    // One customer per connection saves: one customer's saves wait for each other by design (7.5).
    const savers: { headers: Record<string, string>; body: () => string }[] = [];
    for (let i = 1; i <= CONNECTIONS; i += 1) {
      const saver = await signInCustomer(product.base, i);
      savers.push({
        headers: { ...saver.auth, ...saver.csrfHeaders, 'content-type': 'application/json' },
        body: await buyBodies(product.base, saver.userId),
      });
    }
    let nextSaver = 0;
    // Each connection keeps its own customer in autocannon's per-connection context.
    const saveAs = (request: autocannon.Request, context: object) => {
      const own = context as { saver?: (typeof savers)[number] };
      own.saver ??= savers[nextSaver++ % savers.length]!;
      const saver = own.saver;
      return { ...request, headers: { ...request.headers, ...saver.headers }, body: saver.body() };
    };
    // Some orders to list, as the bare server has.
    for (let i = 0; i < 20; i += 1) {
      await callApi(product.base, 'POST', '/api/order/save', JSON.parse(body()) as object, saveHeaders);
    }
    let bareValue = 0;
    const bareBody = () => JSON.stringify({ value: 100 + ((bareValue += 1) % 900_000) / 100 });

    console.log(`${label}: measuring (${DURATION_SECONDS} s each, in ${ROUNDS} turns)…`);
    const atTenConnections: [string, { product: Measured; bare: Measured }][] = [];
    if (measures('price')) {
      const price = await compare(
        label,
        'GET /api/price',
        { server: bare, endpoint: 'GET /hello', options: { url: `${bare.base}/hello` } },
        { server: product, endpoint: 'GET /api/price', options: { url: `${product.base}/api/price` } },
        0.8,
      );
      atTenConnections.push(['GET /api/price', price]);
    }

    if (measures('list')) {
      const list = await compare(
        label,
        'GET /api/order/list (signed in)',
        { server: bare, endpoint: 'GET /orders (same query)', options: { url: `${bare.base}/orders` } },
        {
          server: product,
          endpoint: 'GET /api/order/list',
          options: {
            url: `${product.base}/api/order/list?userId=${customer.userId}&limit=5`,
            headers: customer.auth,
          },
        },
        0.7,
      );
      atTenConnections.push(['GET /api/order/list', list]);
    }

    if (measures('save')) {
      const save = await compare(
        label,
        'POST /api/order/save',
        {
          server: bare,
          endpoint: 'POST /orders (same inserts)',
          options: {
            url: `${bare.base}/orders`,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            requests: [{ setupRequest: (request) => ({ ...request, body: bareBody() }) }],
          },
        },
        {
          server: product,
          endpoint: 'POST /api/order/save',
          options: {
            url: `${product.base}/api/order/save`,
            method: 'POST',
            headers: saveHeaders,
            requests: [{ setupRequest: saveAs }],
          },
        },
        0.5,
      );
      atTenConnections.push(['POST /api/order/save', save]);
    }

    if (label === 'postgres') {
      for (const [endpoint, { product: m, bare: b }] of atTenConnections) {
        targets.push({
          database: label,
          target: `${endpoint} p99 ≤ ${P99_TARGET_MS} ms at ${CONNECTIONS} connections`,
          measured: `${m.p99.toFixed(1)} ms (its bare counterpart: ${b.p99.toFixed(1)} ms)`,
          pass: m.p99 <= P99_TARGET_MS,
        });
      }
    } else if (measures('stress')) {
      // Every connection keeps asking for the price, its order list and a new buy, one after another.
      console.log(`${label}: ${STRESS_CONNECTIONS} connections for ${STRESS_SECONDS} s…`);
      const endpoint = `price + list + save, ${STRESS_CONNECTIONS} connections, ${STRESS_SECONDS} s`;
      const slice = await loadSlice(
        {
          server: product,
          endpoint,
          options: {
            url: product.base,
            connections: STRESS_CONNECTIONS,
            requests: [
              { method: 'GET', path: '/api/price' },
              {
                method: 'GET',
                path: `/api/order/list?userId=${customer.userId}&limit=5`,
                headers: customer.auth,
              },
              { method: 'POST', path: '/api/order/save', headers: saveHeaders, setupRequest: saveAs },
            ],
          },
        },
        STRESS_SECONDS,
      );
      const m = summarise([slice]);
      figures.push({ database: label, server: 'product', endpoint, m });
      const statuses = Object.entries(slice.statusCounts)
        .map(([status, count]) => `${count} × ${status}`)
        .join(', ');
      targets.push({
        database: label,
        target: `${STRESS_CONNECTIONS} connections for ${STRESS_SECONDS} s: no timeout, no error`,
        measured: `${m.requests} requests (${statuses}), ${m.timeouts} timeouts, ${m.errors} errors, p99 ${Math.round(m.p99)} ms`,
        pass: m.timeouts === 0 && m.errors === 0 && m.requests > 0,
      });
    }
  } finally {
    await Promise.all([product.stop(), bare.stop()]);
  }
}

async function main(): Promise<void> {
  const deadline = setTimeout(() => {
    console.error(`The benchmark did not finish within ${RUN_TIMEOUT_MS / 60_000} minutes.`);
    process.exit(1);
  }, RUN_TIMEOUT_MS);
  deadline.unref();

  // BENCH_DATABASES=embedded or =postgres measures one of them only.
  const only = process.env.BENCH_DATABASES;
  if (only !== 'postgres') await benchDatabase('embedded', 'embedded');

  const postgresUrl =
    only === 'embedded' ? undefined : (process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL);
  if (postgresUrl) {
    await withScratchDatabase(postgresUrl, 'offzero_bench', (url) => benchDatabase('postgres', url));
  } else {
    console.log('\nPostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to include it.');
  }

  const cpu = os.cpus();
  console.log(
    `\nServers in their own processes, load from this one; ${CONNECTIONS} connections, ${DURATION_SECONDS} s ` +
      `each in ${ROUNDS} turns taken with the bare counterpart, on ${cpu.length} cores (${cpu[0]?.model ?? 'unknown CPU'}), Node ${process.version}\n`,
  );
  console.table(
    figures.map(({ database, server, endpoint, m }) => ({
      database,
      server,
      endpoint,
      'req/s': m.rps,
      'p50 ms': Math.round(m.p50 * 100) / 100,
      'p99 ms': Math.round(m.p99 * 100) / 100,
      errors: m.errors,
      timeouts: m.timeouts,
      'server CPU µs/req':
        m.serverCpuMicrosPerRequest === null ? '' : Math.round(m.serverCpuMicrosPerRequest),
    })),
  );
  console.log('\nTargets (issue 17, API)\n');
  console.table(
    targets.map((t) => ({
      database: t.database,
      target: t.target,
      measured: t.measured,
      result: t.pass ? 'pass' : 'short',
    })),
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
