#!/usr/bin/env node
// `npm test`: every test. Unit and API tests (Vitest; the API suite also on PostgreSQL when
// TEST_DATABASE_URL is set), then the browser tests (Playwright on Debian's Chromium) against a
// fresh build of the compiled server, then (with TEST_DATABASE_URL) the production start of that build
// on PostgreSQL, and the deployment kit. Ends with one summary line: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';

mkdirSync('.test-reports', { recursive: true });

function run(command, args) {
  console.log(`\n> ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  return result.status === 0;
}

/** Runs a check that ends with "…: N passed, N failed" and reads those counts back. */
function runCounted(command, args) {
  console.log(`\n> ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, {
    stdio: ['inherit', 'pipe', 'inherit'],
    env: process.env,
    encoding: 'utf8',
  });
  process.stdout.write(result.stdout ?? '');
  const match = /(\d+) passed, (\d+) failed\s*$/.exec((result.stdout ?? '').trim());
  const counts = match ? { passed: Number(match[1]), failed: Number(match[2]) } : { passed: 0, failed: 1 };
  return { ok: result.status === 0, ...counts };
}

function readCounts(file, pick) {
  try {
    return pick(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { passed: 0, failed: 0 };
  }
}

const chromiumReady = run('node', ['scripts/ensure-chromium.mjs']);
if (!chromiumReady) process.exit(1);

const unitOk = run('npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  '--outputFile.json=.test-reports/unit.json',
]);
const buildOk = run('npm', ['run', 'build']);
const e2eOk = buildOk && run('npx', ['playwright', 'test']);
const prod =
  buildOk && process.env.TEST_DATABASE_URL
    ? runCounted('node', ['scripts/check-prod-build.mjs'])
    : { ok: true, passed: 0, failed: 0 };

const unit = readCounts('.test-reports/unit.json', (r) => ({
  passed: r.numPassedTests ?? 0,
  failed: r.numFailedTests ?? 0,
}));
const e2e = readCounts('.test-reports/e2e.json', (r) => ({
  passed: r.stats?.expected ?? 0,
  failed: (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0),
}));
const deployKit = runCounted('node', ['scripts/check-deploy-kit.mjs']);
const passed = unit.passed + (e2eOk || buildOk ? e2e.passed : 0) + prod.passed + deployKit.passed;
const failed =
  unit.failed +
  e2e.failed +
  prod.failed +
  deployKit.failed +
  (unitOk ? 0 : unit.failed === 0 ? 1 : 0) +
  (buildOk ? 0 : 1) +
  (e2eOk || !buildOk ? 0 : e2e.failed === 0 ? 1 : 0);

console.log(
  `\nunit and API: ${unit.passed} passed, ${unit.failed} failed; browser: ${e2e.passed} passed, ${e2e.failed} failed; production build: ${prod.passed} passed, ${prod.failed} failed; deploy kit: ${deployKit.passed} passed, ${deployKit.failed} failed`,
);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(unitOk && buildOk && e2eOk && prod.ok && deployKit.ok ? 0 : 1);
