import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBackgroundJobs } from '../jobs/background-jobs';
import { createInProcessJobQueue } from '../jobs/in-process-job-queue';
import type { KycService } from '../kyc/kyc.service';
import type { OrderService } from '../orders/order.service';
import { registerVerifiedCustomer } from '../test/accounts-helpers';
import { saveBank, saveZelle, sellOrder, fileW9 } from '../test/sell-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { PRODUCTION_TEST_ENV } from '../test/production-env';
import { createAppMetrics } from './app-metrics';

/** Prometheus's own checker, where it is installed (Debian: the prometheus package), as the deploy-kit checks use it. */
const promtool = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((path) => existsSync(path));

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/** The sample lines of one series, e.g. `offzero_orders{type="sell",status="pending"} 1`. */
function samples(text: string, name: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

/** The value of the one sample of `name` whose labels include every one given. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = samples(text, name).find((sample) => {
    const labelText = /^[^{ ]+(\{[^}]*\})?/.exec(sample)?.[1] ?? '';
    return wanted.every((pair) => labelText.includes(pair));
  });
  if (line === undefined) return undefined;
  const value = line.slice(line.lastIndexOf(' ') + 1);
  return value === '+Inf' ? Infinity : Number(value);
}

async function scrape(t: TestApp, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: '/metrics', headers });
}

describe('GET /metrics in demo mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      // The watcher is run by the test; the KYC job runs every 2 s and approves nothing this old.
      CHAIN_POLL_SECONDS: '600',
      KYC_AUTO_APPROVE_SECONDS: '86400',
    });
  });
  afterAll(async () => t.close());

  it('is open, in the Prometheus text format, with the default process series', async () => {
    const response = await scrape(t);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(PROMETHEUS_TEXT);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(response.body).toContain(`# TYPE ${name} `);
    }
  });

  it.skipIf(!promtool)('passes promtool check metrics (Prometheus naming rules)', async () => {
    // Some traffic first, so every series of the page has samples.
    await t.app.inject({ method: 'GET', url: '/api/price' });
    const response = await scrape(t);
    // The totals prom-client names `…_total` are served under `…_all`, with their value.
    expect(valueOf(response.body, 'nodejs_active_handles_all')).toBeGreaterThan(0);
    expect(response.body).not.toMatch(/^nodejs_active_\w+_total/m);
    const result = spawnSync(promtool!, ['check', 'metrics'], { input: response.body, encoding: 'utf8' });
    expect(`${result.stdout}${result.stderr}`.trim()).toBe('');
    expect(result.status).toBe(0);
  });

  it('times requests by method, route pattern and status code, never by raw URL', async () => {
    const orderId = randomUUID();
    await t.app.inject({ method: 'GET', url: `/api/admin/orders/${orderId}` });
    await t.app.inject({ method: 'GET', url: `/api/admin/orders/${randomUUID()}` });
    await t.app.inject({ method: 'GET', url: '/api/app-config' });
    await t.app.inject({ method: 'GET', url: `/api/no-such-thing/${orderId}` });

    const text = (await scrape(t)).body;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    expect(
      valueOf(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/admin/orders/:id',
        status_code: '401',
      }),
    ).toBe(2);
    expect(
      valueOf(text, 'http_request_duration_seconds_bucket', {
        le: '+Inf',
        route: '/api/app-config',
        status_code: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      valueOf(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status_code: '404',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(orderId);
    expect(text).not.toContain('no-such-thing');
  });

  it('counts orders by type and status, and deposits credited, from the database at scrape time', async () => {
    const before = (await scrape(t)).body;
    for (const type of ['buy', 'sell']) {
      for (const status of ['pending', 'processing', 'completed', 'expired', 'cancelled']) {
        expect(valueOf(before, 'offzero_orders', { type, status }), `${type} ${status}`).toBe(0);
      }
    }
    expect(valueOf(before, 'offzero_deposits_credited_total')).toBe(0);

    const ada = await registerVerifiedCustomer(t, 'metrics-ada@example.com');
    await saveBank(t, ada);
    await fileW9(t, ada);
    await saveZelle(t, ada, 'metrics-ada@example.com');
    const placed: { _id: string; walletAddress: { address: string } }[] = [];
    for (const amount of [0.01, 0.02]) {
      const { payload } = await sellOrder(t, ada, amount);
      const saved = await t.request({ method: 'POST', url: '/api/order/save', headers: ada.auth, payload });
      expect(saved.statusCode, saved.body).toBe(200);
      placed.push(saved.json().order);
    }
    expect(valueOf((await scrape(t)).body, 'offzero_orders', { type: 'sell', status: 'pending' })).toBe(2);

    const sent = await t.request({
      method: 'POST',
      url: '/api/dev/chain/send',
      payload: { address: placed[0]!.walletAddress.address, amount: 0.01 },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await t.app.depositWatcher.pollOnce()).toEqual({ credited: 1 });
    // Seen again on the next pass: not credited twice.
    await t.app.depositWatcher.pollOnce();

    const after = (await scrape(t)).body;
    expect(valueOf(after, 'offzero_deposits_credited_total')).toBe(1);
    expect(valueOf(after, 'offzero_orders', { type: 'sell', status: 'pending' })).toBe(1);
    expect(valueOf(after, 'offzero_orders', { type: 'sell', status: 'processing' })).toBe(1);
    expect(valueOf(after, 'offzero_orders', { type: 'buy', status: 'pending' })).toBe(0);
  });

  it('reports the outbox backlog and the age of the quoted price', async () => {
    const text = (await scrape(t)).body;
    expect(valueOf(text, 'offzero_outbox_pending')).toBe(0);
    const age = valueOf(text, 'offzero_price_age_seconds');
    expect(age).toBeGreaterThanOrEqual(0);
    // The demo price was fetched when the app started, moments ago.
    expect(age).toBeLessThan(120);
  });

  it('counts background job runs by job and outcome', async () => {
    await vi.waitFor(
      async () => {
        const text = (await scrape(t)).body;
        expect(
          valueOf(text, 'offzero_jobs_total', { job: 'kyc-auto-approve', outcome: 'ok' }),
        ).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 250 },
    );
  });
});

describe('app metrics, one registry per app', () => {
  afterEach(() => vi.useRealTimers());
  const log = { warn: vi.fn(), error: vi.fn() } as unknown as FastifyBaseLogger;

  it('counts each job run as ok or error, and an app never sees another app’s counts', async () => {
    const t = await createTestApp();
    try {
      const metrics = createAppMetrics({ db: t.database.db, prices: { current: () => null }, log });
      const other = createAppMetrics({ db: t.database.db, prices: { current: () => null }, log });
      vi.useFakeTimers();
      const closeHooks: (() => Promise<void>)[] = [];
      const app = {
        config: { processRole: 'worker', chainPollSeconds: 2, kycAutoApproveSeconds: undefined },
        log,
        addHook: (_name: 'onClose', hook: () => Promise<void>) => closeHooks.push(hook),
      } as unknown as FastifyInstance;
      await startBackgroundJobs(app, {
        queue: createInProcessJobQueue({
          log,
          onRun: (job, outcome) => metrics.jobRuns.inc({ job, outcome }),
        }),
        kyc: {} as KycService,
        orders: { expireOverdue: async () => 0 } as unknown as OrderService,
        depositWatcher: {
          pollOnce: async () => {
            throw new Error('esplora is down');
          },
        },
      });
      await vi.advanceTimersByTimeAsync(10_000);
      await Promise.all(closeHooks.map((hook) => hook()));
      vi.useRealTimers();

      const { text } = await metrics.render();
      expect(valueOf(text, 'offzero_jobs_total', { job: 'deposit-watcher', outcome: 'error' })).toBe(5);
      expect(valueOf(text, 'offzero_jobs_total', { job: 'expire-overdue-orders', outcome: 'ok' })).toBe(2);
      expect(valueOf(text, 'offzero_jobs_total', { job: 'deposit-watcher', outcome: 'ok' })).toBeUndefined();
      // No price fetched yet: infinitely old, so an alert on its age fires.
      expect(valueOf(text, 'offzero_price_age_seconds')).toBe(Infinity);
      expect(samples((await other.render()).text, 'offzero_jobs_total')).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('GET /metrics in production', () => {
  const token = 'metrics-token-0123456789abcdef';

  it('answers only the right bearer token; anything else is a plain 404', async () => {
    const t = await createTestApp({ ...PRODUCTION_TEST_ENV, METRICS_TOKEN: token });
    try {
      const refused: Record<string, string>[] = [
        {},
        { authorization: 'Bearer wrong-token-0123456789abcdef' },
        { authorization: `Bearer ${token}x` },
        { authorization: `Basic ${Buffer.from(`metrics:${token}`).toString('base64')}` },
        { authorization: token },
      ];
      for (const headers of refused) {
        const response = await scrape(t, headers);
        expect(response.statusCode, JSON.stringify(headers)).toBe(404);
        expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
        expect(response.body).not.toContain('http_request_duration_seconds');
      }
      const response = await scrape(t, { authorization: `Bearer ${token}` });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(PROMETHEUS_TEXT);
      expect(response.body).toContain('# TYPE offzero_orders gauge');
    } finally {
      await t.close();
    }
  });

  it('is 404 whatever the request when METRICS_TOKEN is not set', async () => {
    const t = await createTestApp(PRODUCTION_TEST_ENV);
    try {
      expect((await scrape(t)).statusCode).toBe(404);
      expect((await scrape(t, { authorization: 'Bearer ' })).statusCode).toBe(404);
      expect((await scrape(t, { authorization: `Bearer ${token}` })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe('a worker process', () => {
  it('serves metrics and health, and no API route', async () => {
    const t = await createTestApp({ PROCESS_ROLE: 'worker' });
    try {
      const metrics = await scrape(t);
      expect(metrics.statusCode).toBe(200);
      expect(metrics.body).toContain('# TYPE offzero_jobs_total counter');
      for (const url of ['/api/health/live', '/api/health/ready', '/api/health']) {
        expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/app-config' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
