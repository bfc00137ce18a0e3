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
 * measures one database only; BENCH_ONLY=price,list,save,stress,seeded (any of them) measures those only;
 * BENCH_SEEDED_DATABASE_URL (a database filled by `npm run seed:scale`) adds the routes on it beside a
 * small database, at the end (`seeded`; bench/support/seeded-comparison.ts);
 * BENCH_CPU_PROF=<dir> writes a CPU profile
 * of every server process there (open it in Chrome's DevTools).
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { forkServerProcess, type ServerProcess } from '../apps/server/src/test/server-process';
import {
  compare as compareSides,
  loadSlice,
  summarise,
  type Figure,
  type Measured,
  type Side,
  type Target,
} from './support/api-load';
import { buyBodies, signInCustomer } from './support/bench-customer';
import { callApi, type DemoCustomer } from './support/demo-customer';
import { withScratchDatabase } from './support/scratch-postgres';
import { runSeededComparison } from './support/seeded-comparison';

const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONNECTIONS = 10;
const STRESS_CONNECTIONS = 100;
const STRESS_SECONDS = 20;
const P99_TARGET_MS = 25;
/** The whole run stops after this, whatever happens. */
const RUN_TIMEOUT_MS = (process.env.BENCH_SEEDED_DATABASE_URL ? 30 : 15) * 60_000;
const SERVER_START_TIMEOUT_MS = 180_000;

const here = path.dirname(fileURLToPath(import.meta.url));

const PARTS = ['price', 'list', 'save', 'stress', 'seeded'] as const;
const onlyParts = process.env.BENCH_ONLY?.split(',').map((part) => part.trim());
const unknownPart = onlyParts?.find((part) => !(PARTS as readonly string[]).includes(part));
if (unknownPart !== undefined) throw new Error(`BENCH_ONLY: "${unknownPart}" is none of ${PARTS.join(', ')}`);
/** Whether this run measures `part` (all of them unless BENCH_ONLY names some). */
const measures = (part: (typeof PARTS)[number]) => !onlyParts || onlyParts.includes(part);

const figures: Figure[] = [];
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
// One database

/** The product's signed-in customers and the requests the load sends for them. */
interface ProductLoad {
  customer: DemoCustomer;
  saveHeaders: Record<string, string>;
  /** Each connection saves as its own customer. */
  saveAs: (request: autocannon.Request, context: object) => autocannon.Request;
  /** The bare server's save body, of a different value each time. */
  bareBody: () => string;
}

type AgainstBare = [string, { product: Measured; bare: Measured }][];

function compare(database: string, name: string, bare: Side, product: Side, atLeast: number) {
  return compareSides(
    { connections: CONNECTIONS, durationSeconds: DURATION_SECONDS, rounds: ROUNDS },
    { figures, targets },
    { database, name, bare, product, atLeast },
  );
}

async function prepareLoad(product: ServerProcess): Promise<ProductLoad> {
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
  return { customer, saveHeaders, saveAs, bareBody };
}

/** Price, order list and save, each beside its bare counterpart, at 10 connections. */
async function measureAgainstBare(
  label: string,
  bare: ServerProcess,
  product: ServerProcess,
  { customer, saveHeaders, saveAs, bareBody }: ProductLoad,
): Promise<AgainstBare> {
  const atTenConnections: AgainstBare = [];
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
  return atTenConnections;
}

/** Every connection keeps asking for the price, its order list and a new buy, one after another. */
async function stressProduct(
  label: string,
  product: ServerProcess,
  { customer, saveHeaders, saveAs }: ProductLoad,
): Promise<void> {
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
    CONNECTIONS,
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

async function benchDatabase(label: string, database: string): Promise<void> {
  console.log(`\n${label}: starting the servers…`);
  const bare = await startServer('bare', database);
  const product = await startServer('product', database);
  try {
    const load = await prepareLoad(product);
    console.log(`${label}: measuring (${DURATION_SECONDS} s each, in ${ROUNDS} turns)…`);
    const atTenConnections = await measureAgainstBare(label, bare, product, load);
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
      await stressProduct(label, product, load);
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
  const measuresAgainstBare = PARTS.some((part) => part !== 'seeded' && measures(part));
  if (measuresAgainstBare && only !== 'postgres') await benchDatabase('embedded', 'embedded');

  const postgresUrl =
    only === 'embedded' ? undefined : (process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL);
  if (measuresAgainstBare && postgresUrl) {
    await withScratchDatabase(postgresUrl, 'offzero_bench', (url) => benchDatabase('postgres', url));
  } else if (measuresAgainstBare) {
    console.log('\nPostgreSQL skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to include it.');
  }

  // The routes on a seeded database beside a small one (bench/support/seeded-comparison.ts).
  const seededUrl = process.env.BENCH_SEEDED_DATABASE_URL;
  if (measures('seeded') && seededUrl) {
    console.log('\nOn the seeded database (issue 45, at scale)\n');
    await runSeededComparison(seededUrl);
  } else if (measures('seeded')) {
    console.log(
      '\nSeeded comparison skipped: set BENCH_SEEDED_DATABASE_URL to a database filled by `npm run seed:scale`.',
    );
  }

  if (figures.length === 0) return;
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
