// The scale test's harness (scripts/test-scale.mjs): its checks and notes, the throwaway database,
// and the compiled server's processes, each started, awaited and killed by name.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { build } from 'esbuild';
import pg from 'pg';

export const root = path.resolve(import.meta.dirname, '../..');
const mainJs = path.join(root, 'apps/server/dist/main.js');
export const migrateJs = path.join(root, 'apps/server/dist/migrate.js');
export const RUN_LIMIT_MS = 420_000;
const startedAt = Date.now();

const baseDatabaseUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379';

const tally = { passed: 0, failed: 0 };
export function check(name, ok, detail = '') {
  if (ok) tally.passed += 1;
  else tally.failed += 1;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `\n     ${detail.replaceAll('\n', '\n     ')}`}`,
  );
}
export const results = () => ({ ...tally });
export const elapsed = () => `${((Date.now() - startedAt) / 1000).toFixed(1)}s`;
export const note = (text) => console.log(`  .. ${elapsed()} ${text}`);

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

/** Refuses to run on a missing or stale build, or against anything but this machine. */
export function preflight() {
  if (!existsSync(mainJs) || !existsSync(migrateJs)) {
    console.error('apps/server/dist/main.js or migrate.js is missing: run `npm run build` first.');
    process.exit(1);
  }
  const builtAt = Math.min(statSync(mainJs).mtimeMs, statSync(migrateJs).mtimeMs);
  const stale = ['apps/server/src', 'packages/shared/src']
    .map((dir) => newerSource(path.join(root, dir), builtAt))
    .find(Boolean);
  if (stale) {
    console.error(
      `apps/server/dist is older than ${path.relative(root, stale)}: run \`npm run build\` first.`,
    );
    process.exit(1);
  }
  for (const url of [baseDatabaseUrl, redisUrl]) {
    const { hostname } = new URL(url);
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(hostname)) {
      console.error(`test:scale only talks to this machine; ${url} is not local.`);
      process.exit(1);
    }
  }
}

/** The shared package's quote maths (raw TypeScript), bundled once so this plain script can use it. */
export async function loadQuoteMaths(dir) {
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

export async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const children = new Set();
export function spawnChild(command, args, env, label) {
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
export const within = (ms, promise) => Promise.race([promise, sleep(ms, 'timeout', { ref: false })]);

export function killAll() {
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
export async function waitFor(ms, probe, everyMs = 200) {
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

export const ports = { web1: 0, web2: 0, worker: 0, nginx: 0 };
const roles = { web1: 'web', web2: 'web', worker: 'worker' };
export const processes = {};

const databaseName = `offzero_scale_${process.pid}_${Date.now()}`;
/** The run's scratch: its database, its temporary folder, and the connections to both databases. */
export const scratch = {
  databaseName,
  databaseUrl: (() => {
    const url = new URL(baseDatabaseUrl);
    url.pathname = `/${databaseName}`;
    return url.toString();
  })(),
  tmp: '',
  dataDir: '',
  admin: new pg.Client({ connectionString: baseDatabaseUrl }),
  /** The run's database, for the checks (connected once the processes are up). */
  db: null,
};

/** A temporary folder for nginx, the data directory and the bundled maths. */
export function makeScratchFolder() {
  scratch.tmp = mkdtempSync(path.join(os.tmpdir(), 'offzero-scale-'));
  scratch.dataDir = path.join(scratch.tmp, 'data');
  mkdirSync(scratch.dataDir);
}

function processEnv(name) {
  return {
    PATH: process.env.PATH,
    APP_MODE: 'demo',
    PROCESS_ROLE: roles[name],
    HOST: '127.0.0.1',
    PORT: String(ports[name]),
    PUBLIC_URL: `http://127.0.0.1:${ports.nginx}`,
    DATA_DIR: scratch.dataDir,
    DATABASE_URL: scratch.databaseUrl,
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

export function startProcess(name) {
  processes[name] = spawnChild(process.execPath, ['--enable-source-maps', mainJs], processEnv(name), name);
  return processes[name];
}

export async function readyStatus(port) {
  const response = await fetch(`http://127.0.0.1:${port}/api/health/ready`, {
    signal: AbortSignal.timeout(2000),
  });
  await response.arrayBuffer();
  return response.status;
}

export async function waitReady(name, ms = 90_000) {
  const running = processes[name];
  let exited = false;
  void running.exited.then(() => (exited = true));
  const ok = await waitFor(ms, async () => exited || (await readyStatus(ports[name])) === 200, 150);
  if (exited || !ok) throw new Error(`${name} did not become ready:\n${running.output.slice(-3000)}`);
}

export async function kill9(name) {
  processes[name].child.kill('SIGKILL');
  const exit = await within(10_000, processes[name].exited);
  if (exit === 'timeout') throw new Error(`${name} survived kill -9`);
}
