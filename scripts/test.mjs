#!/usr/bin/env node
// `npm test`: every test. Unit and API tests (Vitest; the API suite also on PostgreSQL when
// TEST_DATABASE_URL is set), then the browser tests (Playwright on Debian's Chromium) against a
// fresh build of the compiled server, then (with TEST_DATABASE_URL) the production start of that build
// on PostgreSQL, and the deployment kit. Ends with one summary line: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

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

function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

/** The first line of a failure's message, without the terminal's colour codes. */
function firstLine(message) {
  return stripVTControlCharacters(String(message ?? ''))
    .split('\n')[0]
    .trim();
}

/** "file › test: first line of the error" for each failed Vitest test. */
function failedUnitTests(report) {
  const lines = [];
  for (const file of report?.testResults ?? []) {
    const where = relative(process.cwd(), file.name);
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) {
      lines.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    }
    // A file that failed before its tests ran (a syntax error, a failing beforeAll) has no failed test.
    if (file.status === 'failed' && failed.length === 0) lines.push(`${where}: ${firstLine(file.message)}`);
  }
  return lines;
}

/** "file › suite › test: first line of the error" for each failed or flaky Playwright test. */
function failedBrowserTests(report) {
  const lines = [];
  const visit = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      // A flaky test (failed, then passed on a retry) has `ok` set, but counts as failed here.
      const tests = (spec.tests ?? []).filter((t) => t.status === 'unexpected' || t.status === 'flaky');
      if (tests.length === 0) continue;
      const results = tests.flatMap((t) => t.results ?? []);
      const error = results.find((r) => r.error)?.error?.message;
      lines.push(`${[...titles, spec.title].join(' › ')}: ${firstLine(error)}`);
    }
    for (const child of suite.suites ?? []) visit(child, [...titles, child.title]);
  };
  for (const suite of report?.suites ?? []) visit(suite, [suite.file ?? suite.title]);
  return lines;
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

const unitReport = readReport('.test-reports/unit.json');
const unit = { passed: unitReport?.numPassedTests ?? 0, failed: unitReport?.numFailedTests ?? 0 };
const e2eReport = readReport('.test-reports/e2e.json');
const e2e = {
  passed: e2eReport?.stats?.expected ?? 0,
  failed: (e2eReport?.stats?.unexpected ?? 0) + (e2eReport?.stats?.flaky ?? 0),
};
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

// The failures again at the very end, where a log cut to its last lines still shows them.
const failures = [
  ...failedUnitTests(unitReport).map((line) => `failed (unit and API): ${line}`),
  ...(buildOk ? failedBrowserTests(e2eReport) : []).map((line) => `failed (browser): ${line}`),
];
if (failures.length > 0) console.log(`\n${failures.join('\n')}`);
console.log(
  `\nunit and API: ${unit.passed} passed, ${unit.failed} failed; browser: ${e2e.passed} passed, ${e2e.failed} failed; production build: ${prod.passed} passed, ${prod.failed} failed; deploy kit: ${deployKit.passed} passed, ${deployKit.failed} failed`,
);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(unitOk && buildOk && e2eOk && prod.ok && deployKit.ok ? 0 : 1);
