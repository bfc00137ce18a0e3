/**
 * `npm run bench:web`: Lighthouse 12 (mobile preset, simulated throttling) against the compiled server
 * in demo mode on a fresh embedded database, driving Debian's Chromium. Each page is measured three
 * times and the median run is reported beside its target with a pass/short mark; a bare page (no
 * style sheet, no script) is measured last the same way and printed as the host's own share. Prints
 * figures; asserts nothing (the exit code is 0 whatever the scores).
 *
 * Needs `npm run build` first (it builds nothing itself). Nothing leaves 127.0.0.1: no browser is
 * downloaded, Chromium's background networking is off, and its resolver answers "not found" for every
 * host but 127.0.0.1, so a page referring to a third-party host cannot reach it.
 *
 * BENCH_WEB_RUNS (default 3) and BENCH_WEB_PAGES (a comma-separated subset of paths) narrow a run;
 * BENCH_WEB_REPORTS=<dir> keeps each run's Lighthouse report (JSON) there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags, type Result, type RunnerResult } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from '../e2e/support/chromium';
import { demoClient, registerDemoCustomer } from './support/demo-customer';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER_ENTRY = path.join(ROOT, 'apps/server/dist/main.js');
const WEB_INDEX = path.join(ROOT, 'apps/web/dist/index.html');
const CHROME_PATH = process.env.CHROME_PATH ?? CHROMIUM_PATH;
const RUNS = Math.max(1, Number(process.env.BENCH_WEB_RUNS ?? 3));
const HOST = '127.0.0.1';

interface PageTargets {
  path: string;
  /** Minimum performance score (0–100). */
  performance: number;
  signedIn?: boolean;
  /** Only the home page has targets for these three. */
  fcpMs?: number;
  tbtMs?: number;
  jsKb?: number;
}

const PUBLIC_PERFORMANCE = 95;
const PAGES: PageTargets[] = [
  { path: '/', performance: PUBLIC_PERFORMANCE, fcpMs: 1800, tbtMs: 150, jsKb: 150 },
  { path: '/about-us', performance: PUBLIC_PERFORMANCE },
  { path: '/login', performance: PUBLIC_PERFORMANCE },
  { path: '/register', performance: PUBLIC_PERFORMANCE },
  { path: '/terms-of-use', performance: PUBLIC_PERFORMANCE },
  { path: '/privacy-policy', performance: PUBLIC_PERFORMANCE },
  { path: '/cookie-policy', performance: PUBLIC_PERFORMANCE },
  { path: '/refund-policy', performance: PUBLIC_PERFORMANCE },
  { path: '/dashboard', performance: 90, signedIn: true },
];
const ACCESSIBILITY = 100;

const CHROME_FLAGS = [
  ...CHROMIUM_FLAGS,
  // Everything but loopback goes through a proxy that is not there, so it fails at once (Chromium
  // always connects to loopback addresses directly).
  '--proxy-server=http://127.0.0.1:9',
];

interface Measurement {
  performance: number;
  accessibility: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  /** Scripts requested before the page was interactive (all the page loaded, if it never said). */
  scripts: string[];
  failedAccessibility: string[];
  /** Lighthouse's reading of the host's speed (higher is faster), taken at the start of each run. */
  benchmarkIndex: number;
}

/** The mark the web app sets once its first page answers input (apps/web/src/app/layouts/root-layout.tsx). */
const INTERACTIVE_MARK = 'offzero:interactive';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(port: number, dataDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['--enable-source-maps', SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      APP_MODE: 'demo',
      HOST,
      PORT: String(port),
      PUBLIC_URL: `http://${HOST}:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      // Lighthouse runs beside the server on the same small machine: never shed its requests.
      LOAD_SHED_MAX_EVENT_LOOP_DELAY_MS: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
    try {
      const response = await fetch(`http://${HOST}:${port}/api/health/ready`);
      if (response.ok) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  server.kill();
  throw new Error('the server did not become ready within 60 s');
}

/**
 * The web bench's bare counterpart: a page with a heading and a paragraph, no style sheet and no
 * script, served from this process. Its score and blocking time are what this machine and browser
 * cost before any of OffZero's code runs, so a reader can tell the host's share from the product's.
 */
const BASELINE_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Baseline</title>' +
  '<meta name="description" content="A page with nothing to run."></head>' +
  '<body><main><h1>Baseline</h1><p>A page with a heading and a paragraph.</p></main></body></html>';

async function startBaselinePage(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(BASELINE_PAGE);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, () => resolve());
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://${HOST}:${port}/`,
    // The browser keeps its connections open; close them, or close() would wait for them forever.
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Registers a demo customer through the browser's own calls; returns their session token. */
async function signInDemoCustomer(base: string): Promise<string> {
  const customer = await registerDemoCustomer(await demoClient(base), {
    email: `bench-web-${Date.now()}@example.com`,
    phone: '+12025550142',
  });
  return customer.token;
}

/** Stores the session where the web app keeps it (localStorage, which Lighthouse leaves in place). */
async function keepSessionInBrowser(chromePort: number, base: string, token: string): Promise<void> {
  const browser = await puppeteer.connect({ browserURL: `http://${HOST}:${chromePort}` });
  try {
    const page = await browser.newPage();
    await page.goto(`${base}/api/health/live`);
    await page.evaluate((value) => localStorage.setItem('authToken', value), token);
    await page.close();
  } finally {
    await browser.disconnect();
  }
}

function measurementOf(lhr: Result): Measurement {
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const network = lhr.audits['network-requests']?.details as
    | {
        items?: { url: string; resourceType?: string; networkRequestTime?: number }[];
        debugData?: { networkStartTimeTs?: number };
      }
    | undefined;
  const metrics = (lhr.audits.metrics?.details as { items?: { observedTimeOriginTs?: number }[] } | undefined)
    ?.items?.[0];
  const mark = (
    lhr.audits['user-timings']?.details as { items?: { name: string; startTime: number }[] } | undefined
  )?.items?.find((timing) => timing.name === INTERACTIVE_MARK);
  // Both clocks in microseconds of the trace: requests from the first request, the mark from navigation.
  const networkStart = network?.debugData?.networkStartTimeTs;
  const timeOrigin = metrics?.observedTimeOriginTs;
  const interactiveTs =
    mark && networkStart !== undefined && timeOrigin !== undefined
      ? timeOrigin + mark.startTime * 1000
      : null;
  const scripts = (network?.items ?? []).filter(
    (item) =>
      item.resourceType === 'Script' &&
      (interactiveTs === null ||
        networkStart! + (item.networkRequestTime ?? Number.POSITIVE_INFINITY) * 1000 <= interactiveTs),
  );
  const failedAccessibility = (lhr.categories.accessibility?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score === 0)
    .map((ref) => ref.id);
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    scripts: scripts.map((item) => item.url),
    failedAccessibility,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? Number.NaN,
  };
}

/**
 * One Lighthouse run, tried again (up to three times) when Lighthouse itself fails to record the page
 * load (NO_NAVSTART, NO_FCP…), which happens now and then on a busy machine.
 */
async function runLighthouse(url: string, flags: Flags): Promise<RunnerResult> {
  let lastError = '';
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const result = await lighthouse(url, flags);
    if (result && !result.lhr.runtimeError) return result;
    lastError = result?.lhr.runtimeError
      ? `${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`
      : 'no result';
    process.stderr.write(`(${new URL(url).pathname}: ${lastError}; trying again)`);
  }
  throw new Error(`${url}: ${lastError}`);
}

/** The run with the median performance score (Lighthouse's own advice for picking one of several). */
function median(runs: Measurement[]): Measurement {
  const sorted = [...runs].sort((a, b) => a.performance - b.performance);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** What the scripts weigh as gzip on the wire (the server sends the build's .gz copy for `gzip`). */
async function gzipKb(urls: string[]): Promise<number> {
  let bytes = 0;
  for (const url of new Set(urls)) {
    const response = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
    const length = Number(response.headers.get('content-length'));
    bytes += Number.isFinite(length) && length > 0 ? length : (await response.arrayBuffer()).byteLength;
    await response.body?.cancel().catch(() => undefined);
  }
  return bytes / 1024;
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

function mark(pass: boolean): string {
  return pass ? 'pass' : 'SHORT';
}

async function main(): Promise<void> {
  if (!existsSync(SERVER_ENTRY) || !existsSync(WEB_INDEX)) {
    throw new Error('Build first: `npm run build` (the benchmark measures the compiled server and web app).');
  }
  if (!existsSync(CHROME_PATH)) {
    throw new Error(`No Chromium at ${CHROME_PATH}: install Debian's \`chromium\` or set CHROME_PATH.`);
  }
  const only = process.env.BENCH_WEB_PAGES?.split(',').map((entry) => entry.trim());
  const pages = only ? PAGES.filter((page) => only.includes(page.path)) : PAGES;
  const reportsDir = process.env.BENCH_WEB_REPORTS ? path.resolve(process.env.BENCH_WEB_REPORTS) : null;
  if (reportsDir) mkdirSync(reportsDir, { recursive: true });

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'offzero-bench-web-'));
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const server = await startServer(port, dataDir);
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS });
  const results: { page: PageTargets; median: Measurement; jsKb: number }[] = [];
  // The bare page's median run, measured last with the same browser (pushed, read after it closes).
  const baselines: Measurement[] = [];
  /** RUNS Lighthouse runs of one address; the median run (each report kept as `<name>-<run>.json`). */
  const measure = async (url: string, name: string): Promise<Measurement> => {
    const runs: Measurement[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const flags: Flags = {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
      };
      const result = await runLighthouse(url, flags);
      runs.push(measurementOf(result.lhr));
      if (reportsDir)
        writeFileSync(path.join(reportsDir, `${name}-${run + 1}.json`), JSON.stringify(result.lhr));
      process.stderr.write('.');
    }
    return median(runs);
  };
  try {
    // Public pages first: the signed-in session stored for /dashboard would send /login elsewhere.
    const ordered = [...pages.filter((page) => !page.signedIn), ...pages.filter((page) => page.signedIn)];
    let sessionStored = false;
    for (const page of ordered) {
      if (page.signedIn && !sessionStored) {
        await keepSessionInBrowser(chrome.port, base, await signInDemoCustomer(base));
        sessionStored = true;
      }
      const chosen = await measure(
        `${base}${page.path}`,
        page.path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home',
      );
      results.push({ page, median: chosen, jsKb: await gzipKb(chosen.scripts) });
    }
    const baselinePage = await startBaselinePage();
    try {
      baselines.push(await measure(baselinePage.url, 'baseline'));
    } finally {
      await baselinePage.close();
    }
    process.stderr.write('\n');
  } finally {
    chrome.kill();
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }

  const header = ['page', 'performance', 'accessibility', 'FCP', 'LCP', 'TBT', 'JS before interactive'];
  let short = 0;
  const cell = (value: string, target: string, pass: boolean) => {
    if (!pass) short += 1;
    return `${value} (${target}) ${mark(pass)}`;
  };
  const rows = results.map(({ page, median: m, jsKb }) => [
    page.path,
    cell(String(m.performance), `≥${page.performance}`, m.performance >= page.performance),
    cell(String(m.accessibility), String(ACCESSIBILITY), m.accessibility >= ACCESSIBILITY),
    page.fcpMs
      ? cell(`${(m.fcpMs / 1000).toFixed(1)} s`, `≤${page.fcpMs / 1000} s`, m.fcpMs <= page.fcpMs)
      : `${(m.fcpMs / 1000).toFixed(1)} s`,
    `${(m.lcpMs / 1000).toFixed(1)} s`,
    page.tbtMs
      ? cell(`${Math.round(m.tbtMs)} ms`, `≤${page.tbtMs} ms`, m.tbtMs <= page.tbtMs)
      : `${Math.round(m.tbtMs)} ms`,
    page.jsKb
      ? cell(`${jsKb.toFixed(0)} kB`, `≤${page.jsKb} kB`, jsKb <= page.jsKb)
      : `${jsKb.toFixed(0)} kB`,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) => cells.map((text, column) => pad(text, widths[column]!)).join('  ');
  console.log(`\nLighthouse 12 mobile (simulated throttling), median of ${RUNS} run(s), ${CHROME_PATH}\n`);
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  for (const { page, median: m } of results) {
    if (m.failedAccessibility.length > 0) {
      console.log(`  ${page.path}: accessibility audits failing: ${m.failedAccessibility.join(', ')}`);
    }
  }
  const [baseline] = baselines;
  if (baseline) {
    const indexes = [...results.map((result) => result.median), baseline]
      .map((m) => m.benchmarkIndex)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    console.log(
      `\nThis machine, not a target: a bare page (a heading and a paragraph, no style sheet or script)` +
        ` scores ${baseline.performance}, FCP ${(baseline.fcpMs / 1000).toFixed(1)} s, TBT` +
        ` ${Math.round(baseline.tbtMs)} ms; Lighthouse's benchmark index (host speed, higher is faster)` +
        ` ${indexes.length ? `${Math.round(indexes[0]!)}–${Math.round(indexes.at(-1)!)}` : 'not reported'}.`,
    );
  }
  console.log(
    '\nJS before interactive: scripts requested before the page was first interactive (hydrated, or' +
      '\nrendered with its route code), as gzip bytes on the wire. Targets in brackets.' +
      `\n${short === 0 ? 'Every target passes.' : `${short} target(s) short.`}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
