#!/usr/bin/env node
// `npm run test:scale`: the scale-out test. Runs the compiled server as a small production layout
// would: two `web` processes and one `worker` on one PostgreSQL database and one Redis, behind nginx
// with the kit's proxying rules (deploy/nginx/offzero.conf: least_conn, keep-alive upstream, the
// realtime upgrade, proxy_next_upstream). Through nginx it registers two customers, runs a buy paid by
// Zelle and a sell paid on the demo chain, keeps a WebSocket open per customer, `kill -9`s each web
// process mid-way and the worker during deliveries, restarts them, then runs a buy paid with the demo
// PayPal sandbox across both web processes and refunds it, and checks:
//   - every deposit credited once, every notification (e-mail, SMS, realtime) delivered once;
//   - the PayPal payment captured once, its refund's webhook verified and applied by the worker once;
//   - the WebSocket clients reconnected and are up to date;
//   - readiness turns 503 on SIGTERM before the process exits;
//   - a client that retries idempotent calls (GETs on 502/503/refused) never sees a 5xx.
// Builds nothing: run `npm run build` first (a server build older than its sources is refused).
// Needs PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test; a throwaway
// database is created and dropped; SCALE_KEEP_DATABASE=1 keeps it for a look) and Redis
// (TEST_REDIS_URL or REDIS_URL, default redis://127.0.0.1:6379), and nginx (installed with apt-get
// when /usr/sbin/nginx is missing). Only 127.0.0.1 is contacted. Ends with "scale: N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { build } from 'esbuild';
import pg from 'pg';
import { WebSocket } from 'ws';

const root = path.resolve(import.meta.dirname, '..');
const mainJs = path.join(root, 'apps/server/dist/main.js');
const migrateJs = path.join(root, 'apps/server/dist/migrate.js');
const kitConf = path.join(root, 'deploy/nginx/offzero.conf');
const NGINX = '/usr/sbin/nginx';
const RUN_LIMIT_MS = 300_000;
const startedAt = Date.now();

const baseDatabaseUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed += 1;
  else failed += 1;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `\n     ${detail.replaceAll('\n', '\n     ')}`}`,
  );
}
const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1)}s`;
const note = (text) => console.log(`  .. ${elapsed()} ${text}`);

if (!existsSync(mainJs) || !existsSync(migrateJs)) {
  console.error('apps/server/dist/main.js or migrate.js is missing: run `npm run build` first.');
  process.exit(1);
}
/** The newest server or shared source file changed after the build, if any (tests excluded). */
function newerSource(dir, than) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = newerSource(file, than);
      if (found) return found;
    } else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) && statSync(file).mtimeMs > than) {
      return file;
    }
  }
  return null;
}
const builtAt = Math.min(statSync(mainJs).mtimeMs, statSync(migrateJs).mtimeMs);
const stale = ['apps/server/src', 'packages/shared/src']
  .map((dir) => newerSource(path.join(root, dir), builtAt))
  .find(Boolean);
if (stale) {
  console.error(`apps/server/dist is older than ${path.relative(root, stale)}: run \`npm run build\` first.`);
  process.exit(1);
}
for (const url of [baseDatabaseUrl, redisUrl]) {
  const { hostname } = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(hostname)) {
    console.error(`test:scale only talks to this machine; ${url} is not local.`);
    process.exit(1);
  }
}

/** nginx from Debian's package, installed only when missing. */
function ensureNginx() {
  if (existsSync(NGINX)) return;
  console.log('nginx is missing: apt-get install -y nginx');
  const apt = (args) =>
    spawnSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  if (apt(['install', '-y', 'nginx']).status !== 0) {
    apt(['update']);
    apt(['install', '-y', 'nginx']);
  }
  if (!existsSync(NGINX)) throw new Error('nginx could not be installed (apt-get install -y nginx)');
}

/** The shared package's quote maths (raw TypeScript), bundled once so this plain script can use it. */
async function loadQuoteMaths(dir) {
  const file = path.join(dir, 'quote-maths.mjs');
  await build({
    stdin: {
      contents: [
        "export * from './packages/shared/src/quotes/quote.ts';",
        "export * from './packages/shared/src/money/money.ts';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    platform: 'node',
    outfile: file,
    logLevel: 'silent',
  });
  return import(pathToFileURL(file).href);
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const children = new Set();
function spawnChild(command, args, env, label) {
  const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const running = { child, label, output: '' };
  const keep = (chunk) => {
    running.output = (running.output + chunk).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  running.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  children.add(running);
  void running.exited.then(() => children.delete(running));
  return running;
}
const within = (ms, promise) => Promise.race([promise, sleep(ms, 'timeout', { ref: false })]);

function killAll() {
  for (const { child } of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    killAll();
    process.exit(1);
  });

/** Polls until `probe` answers something truthy or `ms` passes; answers the last value. */
async function waitFor(ms, probe, everyMs = 200) {
  const deadline = Date.now() + ms;
  let value;
  while (Date.now() < deadline) {
    value = await probe().catch(() => undefined);
    if (value) return value;
    await sleep(everyMs);
  }
  return value;
}

// --- The throwaway database and the processes ---

const databaseName = `offzero_scale_${process.pid}_${Date.now()}`;
const databaseUrl = (() => {
  const url = new URL(baseDatabaseUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'offzero-scale-'));
const dataDir = path.join(tmp, 'data');
mkdirSync(dataDir);
const admin = new pg.Client({ connectionString: baseDatabaseUrl });
let db = null;

const ports = { web1: 0, web2: 0, worker: 0, nginx: 0 };
const roles = { web1: 'web', web2: 'web', worker: 'worker' };
const processes = {};

function processEnv(name) {
  return {
    PATH: process.env.PATH,
    APP_MODE: 'demo',
    PROCESS_ROLE: roles[name],
    HOST: '127.0.0.1',
    PORT: String(ports[name]),
    PUBLIC_URL: `http://127.0.0.1:${ports.nginx}`,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    MIGRATE_ON_START: 'false',
    // One secret for every process: a session signed by one is accepted by the others.
    JWT_SECRET: 'scale-test-secret-that-is-long-enough-0123456789abcdef',
    TRUST_PROXY: '1',
    LOG_LEVEL: 'warn',
    SHUTDOWN_DRAIN_SECONDS: '1',
    CHAIN_POLL_SECONDS: '1',
    // Per-IP code limits are counted in Redis, which outlives this run's database: every call here
    // comes from 127.0.0.1, so repeated runs would otherwise be refused within 15 minutes.
    OTP_SENDS_PER_IP: '10000',
    OTP_VERIFIES_PER_IP: '10000',
    MUTATIONS_PER_IP_PER_MINUTE: '100000',
  };
}

function startProcess(name) {
  processes[name] = spawnChild(process.execPath, ['--enable-source-maps', mainJs], processEnv(name), name);
  return processes[name];
}

async function readyStatus(port) {
  const response = await fetch(`http://127.0.0.1:${port}/api/health/ready`, {
    signal: AbortSignal.timeout(2000),
  });
  await response.arrayBuffer();
  return response.status;
}

async function waitReady(name, ms = 90_000) {
  const running = processes[name];
  let exited = false;
  void running.exited.then(() => (exited = true));
  const ok = await waitFor(ms, async () => exited || (await readyStatus(ports[name])) === 200, 150);
  if (exited || !ok) throw new Error(`${name} did not become ready:\n${running.output.slice(-3000)}`);
}

/**
 * Waits until nginx sends requests to `name` again. nginx only learns of a dead process passively: after
 * max_fails refused tries it leaves the process out for fail_timeout (10 s), even once it is back. Stopping
 * the other web process inside that window leaves no live upstream (503 for every call), so a rolling
 * restart must wait for this, not only for the process's own readiness.
 */
async function waitRoutedTo(name, ms = 30_000) {
  const log = path.join(tmp, 'nginx/access.log');
  const from = existsSync(log) ? readFileSync(log, 'utf8').length : 0;
  const routed = await waitFor(
    ms,
    async () => {
      await get('/api/app-config');
      return readFileSync(log, 'utf8').slice(from).includes(`upstream=127.0.0.1:${ports[name]} ust=200`);
    },
    100,
  );
  if (!routed) throw new Error(`nginx did not route to ${name} again within ${ms / 1000} s`);
}

async function kill9(name) {
  processes[name].child.kill('SIGKILL');
  const exit = await within(10_000, processes[name].exited);
  if (exit === 'timeout') throw new Error(`${name} survived kill -9`);
}

// --- nginx with the kit's upstream and location rules ---

/** The kit's http-level rules and its /api locations, on a local port over the three processes. */
function nginxConfig() {
  const kit = readFileSync(kitConf, 'utf8');
  const grab = (pattern, what) => {
    const match = kit.match(pattern);
    if (!match) throw new Error(`deploy/nginx/offzero.conf: ${what} not found`);
    return match[0];
  };
  const upstreamBody = grab(/upstream offzero_web \{[\s\S]*?\n\}/, 'the upstream block');
  // Our web processes replace the kit's addresses; its balancing and keep-alive lines stay.
  const servers = ['web1', 'web2']
    .map((name) => `    server 127.0.0.1:${ports[name]} max_fails=3 fail_timeout=10s;`)
    .join('\n');
  const upstream = upstreamBody
    .replace(/^\s*server [^\n]*\n/gm, '')
    .replace('least_conn;', `least_conn;\n${servers}`);
  const map = grab(/map \$http_upgrade \$connection_upgrade \{[\s\S]*?\n\}/, 'the upgrade map');
  const logFormat = grab(/log_format offzero [^;]*;/, 'the log format');
  // The TLS server block, from client_max_body_size to its end, minus what needs root or certificates.
  const server = grab(/\n {4}client_max_body_size[\s\S]*\n\}\s*$/, 'the https server block')
    .replace(/\n\}\s*$/, '')
    .replace(/\n {4}location \/assets\/ \{[\s\S]*?\n {4}\}/, '')
    .replace(/\n {4}location = \/metrics \{[\s\S]*?\n {4}\}/, '');
  for (const rule of [
    'proxy_next_upstream error timeout;',
    'location = /api/realtime',
    '$connection_upgrade',
  ])
    if (!server.includes(rule) && !map.includes(rule)) throw new Error(`the kit lost "${rule}"`);
  return `daemon off;
master_process off;
worker_processes 1;
pid ${tmp}/nginx/nginx.pid;
error_log ${tmp}/nginx/error.log warn;
events { worker_connections 256; }
http {
    client_body_temp_path ${tmp}/nginx/body;
    proxy_temp_path ${tmp}/nginx/proxy;
    fastcgi_temp_path ${tmp}/nginx/fastcgi;
    uwsgi_temp_path ${tmp}/nginx/uwsgi;
    scgi_temp_path ${tmp}/nginx/scgi;
    default_type application/octet-stream;
${upstream}
${map}
${logFormat}
server {
    listen 127.0.0.1:${ports.nginx};
    server_name 127.0.0.1;
    access_log ${tmp}/nginx/access.log offzero;
${server}
}
}
`;
}

// --- HTTP through nginx: a client that retries idempotent calls ---

const base = () => `http://127.0.0.1:${ports.nginx}`;
const RETRYABLE = new Set([502, 503, 504]);
const traffic = { gets: 0, retries: 0, posts: 0, fiveXX: [] };
let csrf = '';

/** A GET, tried again on 502/503/504 or a failed connection for up to 15 s. */
async function get(pathname, token) {
  traffic.gets += 1;
  const deadline = Date.now() + 15_000;
  for (let attempt = 0; ; attempt += 1) {
    let status;
    let body;
    try {
      const response = await fetch(base() + pathname, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        signal: AbortSignal.timeout(10_000),
      });
      status = response.status;
      body = await response.json().catch(() => null);
      if (!RETRYABLE.has(status)) {
        if (status >= 500) traffic.fiveXX.push(`GET ${pathname} ${status}`);
        return { status, body };
      }
    } catch (error) {
      status = `error ${error?.cause?.code ?? error?.name}`;
    }
    if (Date.now() > deadline) {
      traffic.fiveXX.push(`GET ${pathname} ${status} after ${attempt + 1} tries`);
      return { status, body };
    }
    traffic.retries += 1;
    await sleep(Math.min(1000, 100 * 2 ** attempt));
  }
}

async function getOk(pathname, token) {
  const { status, body } = await get(pathname, token);
  if (status !== 200) throw new Error(`GET ${pathname}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/**
 * A POST, sent once (never retried blindly: it may have taken effect), through nginx or straight to
 * the process at `origin`. Answers the status and body.
 */
async function send(pathname, data, token, origin = base()) {
  traffic.posts += 1;
  const response = await fetch(origin + pathname, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrf-token': csrf,
      cookie: `offzero_csrf=${csrf}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(data),
    signal: AbortSignal.timeout(15_000),
  });
  const body = await response.json().catch(() => null);
  if (response.status >= 500) traffic.fiveXX.push(`POST ${pathname} ${response.status}`);
  return { status: response.status, body };
}

/** A POST sent once (see `send`) that must answer 200; answers the body. */
async function post(pathname, data, token, origin) {
  const { status, body } = await send(pathname, data, token, origin);
  if (status !== 200) throw new Error(`POST ${pathname}: ${status} ${JSON.stringify(body)}`);
  return body;
}

/** One web process, straight, not through nginx. */
const processOrigin = (name) => `http://127.0.0.1:${ports[name]}`;

/**
 * Opens the payout-address confirmation link e-mailed to the customer, as they would: a buy's new
 * address is paid only once confirmed (usable at once in demo).
 */
async function confirmPayoutAddress(customer) {
  const link = await waitFor(10_000, async () => {
    const { messages } = await getOk(`/api/dev/outbox?to=${encodeURIComponent(customer.email)}`);
    for (const { text } of messages) {
      const found = /\/settings\/payout-addresses\/confirm\?id=([0-9a-f-]{36})&token=([A-Za-z0-9_-]+)/.exec(
        text ?? '',
      );
      if (found) return found;
    }
    return undefined;
  });
  if (!link) throw new Error(`no payout-address confirmation link reached ${customer.email}`);
  await post(`/api/payout-addresses/${link[1]}/confirm`, { token: link[2] }, customer.token);
}

/** Reads the newest code sent to `to` in the demo outbox. */
async function latestCode(to, notBefore) {
  const code = await waitFor(10_000, async () => {
    const { messages } = await getOk(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
    return messages.find((m) => m.code && Date.parse(m.createdAt) >= notBefore)?.code;
  });
  if (!code) throw new Error(`no code reached ${to}`);
  return code;
}

async function register(email, phone) {
  let since = Date.now() - 2000;
  await post('/api/verification/email/otp', { email, purpose: 'new account' });
  const verified = await post('/api/verification/verify/otp', {
    email,
    code: await latestCode(email, since),
  });
  since = Date.now() - 2000;
  const { registrationToken } = verified;
  await post('/api/verification/phone/otp', { email, phone, registrationToken });
  const session = await post('/api/verification/verify/phone', {
    email,
    phone,
    registrationToken,
    code: await latestCode(phone, since),
  });
  return { email, phone, token: session.token, userId: session.user._id };
}

async function logIn(email) {
  const since = Date.now() - 2000;
  await post('/api/user/login-otp/send', { email });
  const session = await post('/api/user/login-otp/verify', { email, code: await latestCode(email, since) });
  return session.token;
}

const WALLET = 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7';
async function makeTradeReady(customer, zelleEmail) {
  const { userId, token } = customer;
  // Approved four days ago: established customers, past the scam shield's first-buy question.
  await post('/api/dev/kyc/decide', {
    userId,
    status: 'GREEN',
    approvedAt: new Date(Date.now() - 4 * 24 * 3_600_000).toISOString(),
  });
  await post('/api/user/settings/save', { userId, walletAddress: WALLET }, token);
  await post(
    '/api/user/settings/bank/save',
    {
      userId,
      bankAccount: {
        account_name: 'Ada Lovelace',
        account_number: '000123456789',
        bank_name: 'First Demo Bank',
        address: '1 Main St, Cheyenne, WY',
        routing_number: '021000021',
        swift: 'CHASUS33',
      },
    },
    token,
  );
  await post('/api/user/settings/zelle/save', { userId, zelleEmail }, token);
}

async function orderOf(customer, id) {
  const { result } = await getOk(`/api/order/list?userId=${customer.userId}`, customer.token);
  return result.orders.find((order) => order._id === id);
}

// --- Realtime: a client that reconnects, and catches up through the API as the web app does ---

function realtimeClient(customer) {
  const state = {
    readies: 0,
    closes: [],
    events: [],
    /** Order id → the order as the client last read it (after each event and each reconnection). */
    orders: new Map(),
    socket: null,
    stopped: false,
  };
  // As the web app does (apps/web/src/lib/orders.ts): every order event and every reconnection reads
  // the orders again, one read at a time. An event's own copy of the order is not trusted: one whose
  // delivery was retried after a crash arrives late, carrying the order as it was then.
  let reading = Promise.resolve();
  const catchUp = () => {
    reading = reading
      .then(async () => {
        const { result } = await getOk(`/api/order/list?userId=${customer.userId}`, customer.token);
        for (const order of result.orders) state.orders.set(order._id, order);
      })
      .catch(() => undefined);
  };
  const connect = () => {
    if (state.stopped) return;
    const socket = new WebSocket(`ws://127.0.0.1:${ports.nginx}/api/realtime`);
    state.socket = socket;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'auth', token: customer.token })));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.type === 'ready') {
        state.readies += 1;
        if (state.readies > 1) catchUp();
      } else if (message.type !== 'pong') {
        state.events.push(message);
        if (message.type === 'order-updated' || message.type === 'new-transaction') catchUp();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', (code) => {
      state.closes.push(code);
      if (code !== 4401) setTimeout(connect, 300).unref();
    });
  };
  connect();
  state.stop = () => {
    state.stopped = true;
    state.socket?.terminate();
  };
  return state;
}

// --- Background traffic: the retrying client, all the time ---

function backgroundReader(customers) {
  let running = true;
  const loop = (async () => {
    while (running) {
      await get('/api/app-config');
      for (const customer of customers())
        await get(`/api/order/list?userId=${customer.userId}`, customer.token);
      await sleep(100);
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

// --- The run ---

let stopReader = async () => undefined;
const sockets = [];
const watchdog = setTimeout(() => {
  console.log(`FAIL the run took longer than ${RUN_LIMIT_MS / 1000} s`);
  killAll();
  process.exit(1);
}, RUN_LIMIT_MS);
watchdog.unref();

try {
  ensureNginx();
  const maths = await loadQuoteMaths(tmp);
  await admin.connect();
  await admin.query(`create database "${databaseName}"`);
  for (const name of Object.keys(ports)) ports[name] = await freePort();

  const migrate = spawnChild(
    process.execPath,
    [migrateJs],
    { PATH: process.env.PATH, DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
    'migrate',
  );
  const migrated = await within(60_000, migrate.exited);
  if (migrated === 'timeout' || migrated.code !== 0) throw new Error(`migrate failed: ${migrate.output}`);

  // Three OS processes at once, as systemd starts them.
  for (const name of ['web1', 'web2', 'worker']) startProcess(name);
  await Promise.all(['web1', 'web2', 'worker'].map((name) => waitReady(name)));
  note('two web processes and a worker are ready');

  mkdirSync(path.join(tmp, 'nginx'));
  writeFileSync(path.join(tmp, 'nginx/nginx.conf'), nginxConfig());
  const nginx = spawnChild(
    NGINX,
    ['-p', path.join(tmp, 'nginx'), '-c', path.join(tmp, 'nginx/nginx.conf')],
    { PATH: process.env.PATH },
    'nginx',
  );
  const nginxUp = await waitFor(
    10_000,
    async () => (await fetch(`${base()}/api/health/ready`)).status === 200,
    100,
  );
  if (!nginxUp)
    throw new Error(
      `nginx did not answer:\n${nginx.output}${readFileSync(path.join(tmp, 'nginx/error.log'), 'utf8')}`,
    );
  check("nginx with the kit's rules serves the app from two web processes", true);

  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  csrf = (await getOk('/api/csrf'))._csrf;

  // Two customers and the operator, while nothing is being killed (POSTs are not retried).
  const stamp = Date.now().toString(36);
  // 202-555-01xx style numbers: valid, never anyone's.
  const digits = () => `202555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`;
  const buyer = await register(`scale-buyer-${stamp}@example.com`, `+1${digits()}`);
  const seller = await register(`scale-seller-${stamp}@example.com`, `+1${digits()}`);
  await makeTradeReady(buyer, `buyer-${stamp}@example.com`);
  await makeTradeReady(seller, `seller-${stamp}@example.com`);
  const staff = await logIn('admin@offzero.local');
  check('two customers register and an operator signs in through nginx', true);
  stopReader = backgroundReader(() => [buyer, seller]);

  const buyerSocket = realtimeClient(buyer);
  const sellerSocket = realtimeClient(seller);
  sockets.push(buyerSocket, sellerSocket);
  const socketsReady = await waitFor(10_000, async () => buyerSocket.readies > 0 && sellerSocket.readies > 0);
  check("both customers' WebSockets are open and authenticated", Boolean(socketsReady));

  // The buy, paid by Zelle.
  const price = await getOk('/api/price');
  const { settings } = await getOk('/api/admin/settings', buyer.token);
  const buyUsd = 150;
  const buyQuote = maths.quoteBuyFromUsd({
    valueCents: maths.usdNumberToCents(buyUsd),
    sellPriceCents: maths.usdNumberToCents(price.sellPrice),
    feeBps: maths.basisPointsFromPercent(settings.order.platform_fees),
    networkFeeSats: maths.btcNumberToSats(price.networkFee),
  });
  const buy = (
    await post(
      '/api/order/save',
      {
        userId: buyer.userId,
        pair: 'BTC-USD',
        type: 'buy',
        amount: maths.satsToBtcNumber(buyQuote.amountSats),
        value: buyUsd,
        price: price.sellPrice,
        platformFee: maths.centsToUsdNumber(buyQuote.platformFeeCents),
        networkFee: maths.centsToUsdNumber(buyQuote.networkFeeCents),
        expired: 900,
        walletAddress: WALLET,
      },
      buyer.token,
    )
  ).order;
  await confirmPayoutAddress(buyer);
  await post(
    '/api/order/update',
    {
      _id: buy._id,
      payment: { method: 'zelle', amount: buyUsd, create_time: new Date().toISOString(), receiving_in: {} },
      status: 'processing',
    },
    buyer.token,
  );
  await post('/api/order/update', { _id: buy._id, bankTxn: `ZL-SCALE-${stamp}` }, buyer.token);

  // The sell, to be paid on the demo chain; a first sell needs the seller's Form W-9 on file.
  await post(
    '/api/tax/w9',
    {
      legalName: 'Scale Seller',
      tinType: 'SSN',
      tin: '123-45-6789',
      address: { line1: '1 Load Street', city: 'Cheyenne', state: 'WY', postalCode: '82001' },
      certify: true,
    },
    seller.token,
  );
  const sellBtc = 0.004;
  const sellQuote = maths.quoteSellFromBtc({
    amountSats: maths.btcNumberToSats(sellBtc),
    buyPriceCents: maths.usdNumberToCents(price.buyPrice),
    feeBps: maths.basisPointsFromPercent(settings.order.platform_fees),
    bankChargesCents: maths.usdNumberToCents(settings.zelle.bank_charges),
  });
  const sell = (
    await post(
      '/api/order/save',
      {
        userId: seller.userId,
        pair: 'BTC-USD',
        type: 'sell',
        amount: sellBtc,
        value: maths.centsToUsdNumber(sellQuote.valueCents),
        price: price.buyPrice,
        platformFee: maths.centsToUsdNumber(sellQuote.platformFeeCents),
        bankFee: maths.centsToUsdNumber(sellQuote.bankFeeCents),
        networkFee: 0,
        expired: 1200,
        walletAddress: '',
        bankAccount: { method: 'zelle' },
      },
      seller.token,
    )
  ).order;
  note('a Zelle buy is paid and a sell waits for its deposit');

  // kill -9 the first web process mid-way: its sockets drop, nginx sends new requests to the other.
  await kill9('web1');
  note('web1 killed (kill -9)');
  await post(`/api/admin/orders/${buy._id}/mark-paid`, { note: 'Seen in the Zelle inbox' }, staff);
  const deposit = sell.walletAddress;
  const sent = await post('/api/dev/chain/send', { address: deposit.address, amount: deposit.amount });
  // kill -9 the worker while it delivers: its deposit watcher sees the payment within a second and
  // writes and delivers the notifications.
  const written = await waitFor(
    10_000,
    async () => {
      const { rows } = await db.query(
        "select count(*)::int as n from outbox_events where event_key like 'deposit-credit:%'",
      );
      return rows[0].n > 0;
    },
    10,
  );
  await kill9('worker');
  const { rows: atKill } = await db.query(
    "select status, attempts, count(*)::int as n from outbox_events where event_key like 'deposit-%' or event_key like 'order-event:%' group by 1, 2",
  );
  note(
    `worker killed (kill -9) ${written ? 'as its deposit notices were written' : 'before it saw the deposit'}; outbox ${JSON.stringify(atKill)}`,
  );
  startProcess('web1');
  await waitReady('web1');
  await post(`/api/admin/orders/${buy._id}/send-btc`, {}, staff);
  await sleep(1500);
  startProcess('worker');
  await waitReady('worker');
  note('web1 and the worker restarted');
  await waitRoutedTo('web1');
  note('nginx routes to web1 again');

  const seen = await waitFor(30_000, async () => (await orderOf(seller, sell._id))?.status === 'processing');
  check("the sell's deposit is seen after the worker's restart", Boolean(seen));
  // Then the second web process, so whichever held a socket has died once.
  await kill9('web2');
  note('web2 killed (kill -9)');
  await post('/api/dev/chain/mine', { blocks: 1 });
  const confirmed = await waitFor(30_000, async () => (await orderOf(seller, sell._id))?.confirmations >= 1);
  check('the deposit confirms while web2 is down', Boolean(confirmed));
  startProcess('web2');
  await waitReady('web2');
  await waitRoutedTo('web2');
  note('web2 restarted, nginx routes to it again');
  await post(`/api/admin/orders/${sell._id}/payout-usd`, { reference: `ZELLE-OUT-${stamp}` }, staff);

  // SIGTERM: readiness turns 503 (the drain) before the process exits, and the exit is clean.
  {
    const running = processes.web1;
    const statuses = [];
    let exitedAt = 0;
    void running.exited.then(() => (exitedAt = Date.now()));
    running.child.kill('SIGTERM');
    let first503At = 0;
    const deadline = Date.now() + 15_000;
    while (!exitedAt && Date.now() < deadline) {
      const status = await readyStatus(ports.web1).catch(() => 'refused');
      statuses.push(status);
      if (status === 503 && !first503At) first503At = Date.now();
      await sleep(50);
    }
    const exit = await within(15_000, running.exited);
    check(
      'readiness answers 503 after SIGTERM, before the process exits cleanly',
      first503At > 0 && exit !== 'timeout' && exit.code === 0,
      `statuses ${[...new Set(statuses)].join(',')}; exit ${JSON.stringify(exit)}\n${running.output.slice(-2000)}`,
    );
    startProcess('web1');
    await waitReady('web1');
    note('web1 stopped by SIGTERM and restarted');
  }

  // Everything settles: orders complete, the outbox empties.
  const buyDone = await waitFor(20_000, async () => (await orderOf(buyer, buy._id))?.status === 'completed');
  const sellDone = await waitFor(
    20_000,
    async () => (await orderOf(seller, sell._id))?.status === 'completed',
  );
  check('the buy and the sell are completed', Boolean(buyDone && sellDone));

  // A PayPal buy across the processes: its payment created through web1, approved in the demo sandbox
  // through web2, captured through both at the same moment; then refunded in the sandbox through web2,
  // whose webhook the worker verifies again from storage and applies (web processes run no jobs).
  {
    const paypalPrice = await getOk('/api/price');
    const paypalUsd = 120;
    const paypalQuote = maths.quoteBuyFromUsd({
      valueCents: maths.usdNumberToCents(paypalUsd),
      sellPriceCents: maths.usdNumberToCents(paypalPrice.sellPrice),
      feeBps: maths.basisPointsFromPercent(settings.order.platform_fees),
      networkFeeSats: maths.btcNumberToSats(paypalPrice.networkFee),
    });
    const paypalBuy = (
      await post(
        '/api/order/save',
        {
          userId: buyer.userId,
          pair: 'BTC-USD',
          type: 'buy',
          amount: maths.satsToBtcNumber(paypalQuote.amountSats),
          value: paypalUsd,
          price: paypalPrice.sellPrice,
          platformFee: maths.centsToUsdNumber(paypalQuote.platformFeeCents),
          networkFee: maths.centsToUsdNumber(paypalQuote.networkFeeCents),
          expired: 900,
          walletAddress: WALLET,
        },
        buyer.token,
      )
    ).order;
    const { id: paypalOrderId } = await post(
      '/api/payments/paypal/orders',
      { orderId: paypalBuy._id },
      buyer.token,
      processOrigin('web1'),
    );
    await post(`/api/dev/paypal/orders/${paypalOrderId}/approve`, {}, buyer.token, processOrigin('web2'));
    const captures = await Promise.all(
      ['web1', 'web2'].map((name) =>
        send(
          `/api/payments/paypal/orders/${paypalOrderId}/capture`,
          { orderId: paypalBuy._id },
          buyer.token,
          processOrigin(name),
        ),
      ),
    );
    const captureStatuses = captures.map((answer) => answer.status).sort();
    const { rows: sandboxRows } = await db.query(
      'select status, capture_id, value_cents::text as cents from demo_paypal_orders where reference_id = $1',
      [paypalBuy._id],
    );
    const { rows: paidRows } = await db.query(
      `select o.status, o.payment_method, o.paypal_capture_id,
              (select count(*)::int from order_events e where e.order_id = o.id and e.to_status = 'processing') as moves
         from orders o where o.id = $1`,
      [paypalBuy._id],
    );
    const paid = paidRows[0];
    check(
      'a PayPal payment created on web1 is approved on web2 and captured once though sent to both',
      captureStatuses.join(',') === '200,409' &&
        sandboxRows.length === 1 &&
        sandboxRows[0].status === 'COMPLETED' &&
        BigInt(sandboxRows[0].cents) === maths.usdNumberToCents(paypalUsd) &&
        paid?.status === 'processing' &&
        paid.payment_method === 'paypal' &&
        paid.paypal_capture_id === sandboxRows[0].capture_id &&
        paid.moves === 1,
      JSON.stringify({ captures, sandboxRows, paid }),
    );

    const captureId = sandboxRows[0]?.capture_id;
    await post(`/api/dev/paypal/captures/${captureId}/refund`, {}, undefined, processOrigin('web2'));
    const refundAgain = await send(
      `/api/dev/paypal/captures/${captureId}/refund`,
      {},
      undefined,
      processOrigin('web1'),
    );
    const reversed = await waitFor(20_000, async () => {
      const { rows } = await db.query('select flag from orders where id = $1', [paypalBuy._id]);
      return rows[0]?.flag === 'payment_reversed';
    });
    const { rows: deliveries } = await db.query(
      "select status, attempts, last_error from webhook_deliveries where provider = 'paypal'",
    );
    const { rows: reversals } = await db.query(
      "select count(*)::int as n from order_events where order_id = $1 and reason = 'PayPal payment reversed'",
      [paypalBuy._id],
    );
    const { rows: refunds } = await db.query(
      'select count(*)::int as n from demo_paypal_orders where capture_id = $1 and refund_id is not null',
      [captureId],
    );
    check(
      "the PayPal refund's webhook is verified and applied by the worker at its first try, once; a second refund is refused",
      Boolean(reversed) &&
        refundAgain.status === 409 &&
        deliveries.length === 1 &&
        deliveries[0].status === 'processed' &&
        deliveries[0].attempts === 1 &&
        reversals[0].n === 1 &&
        refunds[0].n === 1,
      JSON.stringify({ reversed, refundAgain, deliveries, reversals: reversals[0], refunds: refunds[0] }),
    );
  }
  let outbox = 'no answer';
  const drained = await waitFor(
    60_000,
    async () => {
      const answer = await get('/api/admin/outbox', staff);
      outbox = answer;
      if (answer.status !== 200) return false;
      outbox = answer.body;
      const parked = Array.isArray(outbox.failed) ? outbox.failed.length : outbox.failed;
      return outbox.pending === 0 && parked === 0;
    },
    500,
  );
  check(
    'the outbox has nothing pending or failed (GET /api/admin/outbox)',
    Boolean(drained),
    JSON.stringify(outbox),
  );

  // --- Losses and duplicates, read from the database ---
  const { rows: depositRows } = await db.query(
    'select txid, vout, count(*)::int as n, sum(value_sats)::text as sats from deposits group by txid, vout',
  );
  const credited = depositRows.find((row) => row.txid === sent.txid);
  check(
    'the deposit is credited once (one deposits row for its txid:vout, the amount sent)',
    depositRows.every((row) => row.n === 1) &&
      credited?.n === 1 &&
      BigInt(credited.sats) === maths.btcNumberToSats(deposit.amount),
    JSON.stringify(depositRows),
  );
  const { rows: toProcessing } = await db.query(
    "select count(*)::int as n from order_events where order_id = $1 and to_status = 'processing'",
    [sell._id],
  );
  check('the sell moved to processing once', toProcessing[0].n === 1, `${toProcessing[0].n} events`);

  const { rows: notDelivered } = await db.query(
    "select event_key, channel, recipient, status, attempts from outbox_events where status <> 'delivered'",
  );
  check('every outbox row is delivered', notDelivered.length === 0, JSON.stringify(notDelivered));
  // Delivered once: each e-mail and SMS the outbox holds is in the demo sink exactly as many times as
  // the outbox holds it (two events may carry the same text), and the sink has no other notice.
  // One-time codes are sent inline, not through the outbox, and carry a code.
  const { rows: messageCounts } = await db.query(
    `select coalesce(e.channel, m.channel) as channel, coalesce(e.recipient, m.to) as recipient,
            coalesce(e.text, m.text) as text, coalesce(e.n, 0) as events, coalesce(m.n, 0) as copies
       from (select channel, recipient,
                    -- A link is stored as a path and sent joined to PUBLIC_URL, after the text.
                    (payload->>'text') || coalesce(E'\n\n' || (payload->'link'->>'label') || ': ' || $1::text
                      || (payload->'link'->>'path'), '') as text,
                    count(*)::int as n
               from outbox_events where channel in ('email', 'sms') group by 1, 2, 3) e
       full join (select channel, "to", text, count(*)::int as n
                    from outbox_messages where code is null group by 1, 2, 3) m
         on m.channel = e.channel and m.to = e.recipient and m.text = e.text`,
    [base()],
  );
  const notices = messageCounts.reduce((sum, row) => sum + row.events, 0);
  const mismatched = messageCounts.filter((row) => row.events !== row.copies);
  check(
    `every e-mail and SMS notice (${notices}) reached the demo sink once, none twice, none unasked`,
    notices >= 6 && mismatched.length === 0,
    JSON.stringify(mismatched, null, 1),
  );

  // --- The WebSocket clients ---
  const socketCheck = await waitFor(10_000, async () => {
    const sellerView = sellerSocket.orders.get(sell._id);
    const buyerView = buyerSocket.orders.get(buy._id);
    return sellerView?.status === 'completed' && buyerView?.status === 'completed';
  });
  const drops = sellerSocket.closes.length + buyerSocket.closes.length;
  check(
    `the WebSockets dropped with their processes and reconnected (${drops} drops, ${buyerSocket.readies + sellerSocket.readies - 2} reconnections)`,
    drops >= 1 &&
      buyerSocket.readies === buyerSocket.closes.length + 1 &&
      sellerSocket.readies === sellerSocket.closes.length + 1 &&
      buyerSocket.socket.readyState === WebSocket.OPEN &&
      sellerSocket.socket.readyState === WebSocket.OPEN,
    `buyer closes ${buyerSocket.closes} readies ${buyerSocket.readies}; seller closes ${sellerSocket.closes} readies ${sellerSocket.readies}`,
  );
  check(
    'the reconnected clients are up to date (both orders completed, as the API says)',
    Boolean(socketCheck),
    `buyer sees ${buyerSocket.orders.get(buy._id)?.status}, seller sees ${sellerSocket.orders.get(sell._id)?.status}`,
  );
  // No realtime event reached a client more often than it was sent. A row delivered at its first try
  // was published once. A row tried again (its deliverer was killed after publishing, before recording
  // the delivery, and the claim lease ran out) may have been published once per try: realtime delivery
  // is at least once, which the web app tolerates by reading the orders again on every event. Those
  // are counted and shown, not failed.
  const eventKey = (event) =>
    JSON.stringify([
      event.type,
      event.payload._id ?? event.payload.order?._id ?? null,
      event.payload.order?.status ?? event.payload.status ?? null,
      event.payload.order?.confirmations ?? null,
      event.payload.txn ?? event.payload.order?.txn ?? null,
    ]);
  const repeated = [];
  let retriedRepeats = 0;
  for (const [label, customer, socket] of [
    ['buyer', buyer, buyerSocket],
    ['seller', seller, sellerSocket],
  ]) {
    const { rows } = await db.query(
      "select payload, attempts from outbox_events where channel = 'realtime' and recipient = $1 and status = 'delivered'",
      [customer.userId],
    );
    const received = socket.events.map(eventKey);
    for (const key of new Set(received)) {
      const times = received.filter((k) => k === key).length;
      const sent = rows.filter((row) => eventKey(row.payload) === key);
      const once = sent.length;
      const atMost = sent.reduce((sum, row) => sum + row.attempts, 0);
      if (times > atMost)
        repeated.push(
          `${label} got ${key} ${times} times; the outbox holds it ${once} times (${atMost} tries)`,
        );
      else if (times > once) retriedRepeats += times - once;
    }
  }
  check(
    `no realtime event reached a client twice${retriedRepeats ? ` (${retriedRepeats} repeat(s) of deliveries retried after the kill)` : ''}`,
    repeated.length === 0,
    repeated.join('\n'),
  );
  const afterDrop =
    sellerSocket.events.some(
      (event) => event.type === 'order-updated' && event.payload.order.status === 'completed',
    ) ||
    buyerSocket.events.some(
      (event) => event.type === 'order-updated' && event.payload.order.status === 'completed',
    );
  check('events published after the kills reach the reconnected sockets', afterDrop);

  await stopReader();
  stopReader = async () => undefined;
  check(
    `the retrying client saw no 5xx (${traffic.gets} GETs, ${traffic.retries} retries, ${traffic.posts} POSTs)`,
    traffic.fiveXX.length === 0,
    traffic.fiveXX.slice(0, 20).join('\n'),
  );
} catch (error) {
  check(
    'the scale test itself ran',
    false,
    error instanceof Error ? (error.stack ?? error.message) : String(error),
  );
  for (const running of children)
    if (running.label !== 'migrate')
      console.log(`  -- ${running.label} output (tail):\n${running.output.slice(-1500)}`);
} finally {
  await within(5000, stopReader()).catch(() => undefined);
  for (const socket of sockets) socket.stop();
  killAll();
  await within(5000, Promise.all([...children].map((running) => running.exited)));
  await db?.end().catch(() => undefined);
  // SCALE_KEEP_DATABASE=1 keeps it for a look after a failure.
  if (process.env.SCALE_KEEP_DATABASE === '1') console.log(`  .. database kept: ${databaseUrl}`);
  else await admin.query(`drop database if exists "${databaseName}" with (force)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
}

console.log(`  .. took ${elapsed()}`);
console.log(`scale: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
