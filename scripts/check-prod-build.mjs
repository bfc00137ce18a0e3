#!/usr/bin/env node
// `npm run check:prod-build`: checks the compiled server as production runs it. Builds nothing:
// run `npm run build` first. On a throwaway PostgreSQL database (created from TEST_DATABASE_URL,
// default postgres://postgres@127.0.0.1:5432/test, and dropped at the end) it checks that
//   1. `node apps/server/dist/main.js` in production refuses to start while migrations are pending,
//      naming them;
//   2. the compiled migrate command (`npm run db:migrate`) applies them, and a second run has nothing to do;
//   3. the server then starts, answers GET /api/health and serves the web app, and stops on SIGTERM;
//   4. PROCESS_ROLE=worker answers health checks on its port and nothing else.
// Redis is used when TEST_REDIS_URL (or REDIS_URL, as .ci/run sets) is set. Ends with "prod build: N passed, N failed".
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '..');
const mainJs = path.join(root, 'apps/server/dist/main.js');
const migrateJs = path.join(root, 'apps/server/dist/migrate.js');
const webIndex = path.join(root, 'apps/web/dist/index.html');
const journal = JSON.parse(readFileSync(path.join(root, 'apps/server/drizzle/meta/_journal.json'), 'utf8'));
const migrationTags = journal.entries.map((entry) => entry.tag);

const { TEST_DATABASE_URL } = process.env;
const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? process.env.REDIS_URL;
const baseUrl = TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed += 1;
  else failed += 1;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `\n     ${detail.replaceAll('\n', '\n     ')}`}`,
  );
}

if (!existsSync(mainJs) || !existsSync(migrateJs)) {
  console.error('apps/server/dist/main.js or migrate.js is missing: run `npm run build` first.');
  process.exit(1);
}

async function freePort() {
  const server = net.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a compiled entry with plain node (the one running this script: Node 24 under npm). */
function start(entry, env) {
  const child = spawn(process.execPath, ['--enable-source-maps', entry], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { text: '' };
  child.stdout.on('data', (chunk) => (output.text += chunk));
  child.stderr.on('data', (chunk) => (output.text += chunk));
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, output, exited };
}

function within(ms, promise) {
  return Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve('timeout'), ms).unref())]);
}

async function waitForHealth(port, running) {
  const deadline = Date.now() + 60_000;
  let exited = false;
  void running.exited.then(() => (exited = true));
  while (Date.now() < deadline && !exited) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      return { status: response.status, body: await response.json() };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  return null;
}

async function stop(running) {
  running.child.kill('SIGTERM');
  return within(15_000, running.exited);
}

const databaseName = `offzero_prodcheck_${process.pid}_${Date.now()}`;
const databaseUrl = (() => {
  const url = new URL(baseUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
})();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'offzero-prodcheck-'));
const admin = new pg.Client({ connectionString: baseUrl });
const children = [];

/** Every variable production requires, with local or dummy values: nothing real is contacted. */
const productionEnv = (port, extra = {}) => ({
  APP_MODE: 'production',
  HOST: '127.0.0.1',
  PORT: String(port),
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  ...(TEST_REDIS_URL ? { REDIS_URL: TEST_REDIS_URL } : {}),
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'prod-build-check-secret-that-is-long-enough-0123456789',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  ADMIN_EMAILS: 'ops@example.com',
  EXPLORER_URL: 'https://mempool.space',
  SMTP_URL: 'smtp://127.0.0.1:9',
  MAIL_FROM: 'OffZero <no-reply@example.com>',
  TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000',
  TWILIO_AUTH_TOKEN: 'dummy',
  TWILIO_FROM_NUMBER: '+15005550006',
  TWILIO_API_URL: 'http://127.0.0.1:9',
  SUMSUB_APP_TOKEN: 'dummy',
  SUMSUB_SECRET_KEY: 'dummy',
  SUMSUB_WEBHOOK_SECRET: 'dummy',
  SUMSUB_API_URL: 'http://127.0.0.1:9',
  PAYPAL_CLIENT_ID: 'dummy',
  PAYPAL_CLIENT_SECRET: 'dummy',
  PAYPAL_API_URL: 'http://127.0.0.1:9',
  COINBASE_API_URL: 'http://127.0.0.1:9',
  KRAKEN_API_URL: 'http://127.0.0.1:9',
  ESPLORA_URL: 'http://127.0.0.1:9/api',
  // A public BIP84 test vector's account key (no coins): production only reads it to derive addresses.
  DEPOSIT_XPUB:
    'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs',
  ...extra,
});

try {
  await admin.connect();
  await admin.query(`create database "${databaseName}"`);

  // 1. Pending migrations stop a production start, by name.
  {
    const port = await freePort();
    const running = start(mainJs, productionEnv(port));
    children.push(running);
    const exit = await within(60_000, running.exited);
    const named = migrationTags.every((tag) => running.output.text.includes(tag));
    check(
      'production refuses to start with pending migrations and names them',
      exit !== 'timeout' && exit.code !== 0 && named && running.output.text.includes('npm run db:migrate'),
      `exit ${JSON.stringify(exit)}; output:\n${running.output.text}`,
    );
  }

  // 2. The migrate command applies them, then has nothing left to do.
  {
    const first = start(migrateJs, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    children.push(first);
    const firstExit = await within(60_000, first.exited);
    check(
      `db:migrate applies the ${migrationTags.length} migrations and exits`,
      firstExit !== 'timeout' && firstExit.code === 0 && first.output.text.includes(migrationTags.at(-1)),
      `exit ${JSON.stringify(firstExit)}; output:\n${first.output.text}`,
    );
    const second = start(migrateJs, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    children.push(second);
    const secondExit = await within(60_000, second.exited);
    check(
      'db:migrate a second time finds nothing pending',
      secondExit !== 'timeout' &&
        secondExit.code === 0 &&
        second.output.text.includes('No pending migrations'),
      `exit ${JSON.stringify(secondExit)}; output:\n${second.output.text}`,
    );
  }

  // 3. The migrated database: the whole product is served, and SIGTERM stops it cleanly.
  {
    const port = await freePort();
    const running = start(mainJs, productionEnv(port));
    children.push(running);
    const health = await waitForHealth(port, running);
    check(
      'production serves GET /api/health on PostgreSQL',
      health?.status === 200 && health.body.status === 'ok' && health.body.database?.kind === 'postgres',
      `health ${JSON.stringify(health)}; output:\n${running.output.text}`,
    );
    if (health) {
      const api = await fetch(`http://127.0.0.1:${port}/api/app-config`);
      check('production answers the API (GET /api/app-config)', api.status === 200, `status ${api.status}`);
      if (existsSync(webIndex)) {
        const page = await fetch(`http://127.0.0.1:${port}/dashboard`);
        const html = await page.text();
        check(
          'production serves the built web app',
          page.status === 200 && html.includes('<div id="root">'),
          `status ${page.status}: ${html.slice(0, 200)}`,
        );
      } else {
        console.log('skip the web app is not built (apps/web/dist)');
      }
    }
    const exit = await stop(running);
    check(
      'SIGTERM stops the server cleanly',
      exit !== 'timeout' && exit.code === 0,
      `exit ${JSON.stringify(exit)}; output:\n${running.output.text}`,
    );
  }

  // 4. A worker answers health checks on its port, and no API route.
  {
    const port = await freePort();
    const running = start(mainJs, productionEnv(port, { PROCESS_ROLE: 'worker' }));
    children.push(running);
    const health = await waitForHealth(port, running);
    check(
      'a worker answers GET /api/health',
      health?.status === 200 && health.body.status === 'ok',
      `health ${JSON.stringify(health)}; output:\n${running.output.text}`,
    );
    if (health) {
      const api = await fetch(`http://127.0.0.1:${port}/api/app-config`);
      check('a worker serves no API route', api.status === 404, `status ${api.status}`);
    }
    const exit = await stop(running);
    check('SIGTERM stops the worker cleanly', exit !== 'timeout' && exit.code === 0, JSON.stringify(exit));
  }
} catch (error) {
  check(
    'the check itself ran',
    false,
    error instanceof Error ? (error.stack ?? error.message) : String(error),
  );
} finally {
  for (const { child } of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await admin.query(`drop database if exists "${databaseName}" with (force)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`prod build: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
