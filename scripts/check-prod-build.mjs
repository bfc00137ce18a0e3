#!/usr/bin/env node
// `npm run check:prod-build`: checks the compiled server as production runs it. Builds nothing:
// run `npm run build` first. On a throwaway PostgreSQL database (created from TEST_DATABASE_URL,
// default postgres://postgres@127.0.0.1:5432/test, and dropped at the end) it checks that
//   1. `node apps/server/dist/main.js` in production refuses to start while migrations are pending,
//      naming them;
//   2. the compiled migrate command (`npm run db:migrate`) applies them, and a second run has nothing to do;
//   3. the server then starts, answers GET /api/health and serves the web app, and stops on SIGTERM;
//   4. PROCESS_ROLE=worker answers health checks on its port and nothing else;
//   5. a production install of the build (`npm ci --omit=dev` beside the compiled files, no dev
//      dependency present) serves the product with `npm run start:prod`.
// Redis is used when TEST_REDIS_URL (or REDIS_URL, as .ci/run sets) is set. Ends with "prod build: N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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
  return startCommand(process.execPath, ['--enable-source-maps', entry], root, env);
}

function startCommand(command, args, cwd, env, options = {}) {
  const child = spawn(command, args, {
    cwd,
    // Its own process group, so a stop reaches the server under `npm run` too, as systemd's would.
    detached: options.group === true,
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
const cleanups = [];

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
  PAYPAL_WEBHOOK_ID: 'WH-PRODCHECK',
  INCREASE_API_KEY: 'dummy',
  INCREASE_ACCOUNT_ID: 'account_prodcheck',
  INCREASE_SOURCE_ACCOUNT_NUMBER_ID: 'account_number_prodcheck',
  INCREASE_WEBHOOK_SECRET: 'whsec_prodcheck',
  INCREASE_API_URL: 'http://127.0.0.1:9',
  DATA_ENCRYPTION_KEY: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
  // The list in the repository, so the check never reaches OFAC (or any address but this machine).
  SANCTIONS_LIST_URL: pathToFileURL(path.resolve('apps/server/sanctions/demo-sdn-advanced.xml')).href,
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
          // The app's root element; a prerendered page's root may carry attributes (the dashboard's frame).
          page.status === 200 && /<div id="root"[\s>]/.test(html),
          `status ${page.status}: ${html.slice(0, 200)}`,
        );
        // The page routes sit beside the API's: its description must still be made.
        const openapi = await fetch(`http://127.0.0.1:${port}/api/openapi.json`);
        const description = await openapi.text();
        check(
          'production describes its API (GET /api/openapi.json) while serving the web app',
          openapi.status === 200 && /^3\.1\./.test(JSON.parse(description).openapi ?? ''),
          `status ${openapi.status}: ${description.slice(0, 200)}`,
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

  // 5. What an operator deploys: the compiled files and a production install, no dev dependency.
  {
    const deployDir = mkdtempSync(path.join(os.tmpdir(), 'offzero-deploy-'));
    cleanups.push(() => rmSync(deployDir, { recursive: true, force: true }));
    for (const entry of [
      'package.json',
      'package-lock.json',
      'packages/shared/package.json',
      'apps/server/package.json',
      'apps/web/package.json',
      'apps/server/dist',
      'apps/server/drizzle',
      'apps/web/dist',
    ]) {
      if (existsSync(path.join(root, entry)))
        cpSync(path.join(root, entry), path.join(deployDir, entry), { recursive: true });
    }
    const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
      cwd: deployDir,
      encoding: 'utf8',
      env: { ...process.env, npm_config_loglevel: 'error' },
    });
    const devPresent = [
      'vitest',
      'typescript',
      'tsx',
      'esbuild',
      'vite',
      '@playwright/test',
      'drizzle-kit',
    ].filter((name) => existsSync(path.join(deployDir, 'node_modules', name)));
    check(
      'npm ci --omit=dev installs the run-time packages only',
      install.status === 0 && devPresent.length === 0,
      `exit ${install.status}; dev packages present: ${devPresent.join(', ') || 'none'}\n${install.stderr}`,
    );
    if (install.status === 0) {
      const port = await freePort();
      const running = startCommand(
        'npm',
        ['run', 'start:prod'],
        deployDir,
        { ...productionEnv(port), HOME: process.env.HOME },
        { group: true },
      );
      children.push(running);
      const health = await waitForHealth(port, running);
      const page = health ? await fetch(`http://127.0.0.1:${port}/`).catch(() => null) : null;
      const html = page ? await page.text() : '';
      check(
        'npm run start:prod on that install serves the API and the web app on PostgreSQL',
        health?.status === 200 && page?.status === 200 && html.includes('<div id="root">'),
        `health ${JSON.stringify(health)}, page ${page?.status}; output:\n${running.output.text}`,
      );
      // SIGTERM to the group, as systemd sends it to every process of the unit.
      if (running.child.exitCode === null) process.kill(-running.child.pid, 'SIGTERM');
      const exit = await within(15_000, running.exited);
      // The server drains first (readiness 503 for SHUTDOWN_DRAIN_SECONDS), then stops listening.
      let stillAnswers = true;
      for (const deadline = Date.now() + 45_000; stillAnswers && Date.now() < deadline;) {
        stillAnswers = await fetch(`http://127.0.0.1:${port}/api/health/live`).then(
          () => true,
          () => false,
        );
        if (stillAnswers) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      check(
        'SIGTERM stops it, and nothing is left listening',
        exit !== 'timeout' && !stillAnswers,
        `exit ${JSON.stringify(exit)}, still answering: ${stillAnswers}`,
      );
    }
  }
} catch (error) {
  check(
    'the check itself ran',
    false,
    error instanceof Error ? (error.stack ?? error.message) : String(error),
  );
} finally {
  for (const { child } of children) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    // A process group of its own is stopped whole (the server under `npm run`).
    try {
      if (child.spawnargs[0] === 'npm') process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  await admin.query(`drop database if exists "${databaseName}" with (force)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
  rmSync(dataDir, { recursive: true, force: true });
  for (const cleanup of cleanups) cleanup();
}

console.log(`prod build: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
