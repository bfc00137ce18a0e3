import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppConfig } from '../config/config';
import type { DepositWatcher } from '../rails/onchain/deposit-watcher';
import type { KycService } from '../kyc/kyc.service';
import type { OrderService } from '../orders/order.service';
import { createTestApp } from '../test/test-app';
import { startBackgroundJobs } from './background-jobs';
import { createInProcessJobQueue } from './in-process-job-queue';

/** The jobs against stand-in services, on fake timers, in the given process role. */
async function startJobsAs(processRole: AppConfig['processRole']) {
  const closeHooks: (() => Promise<void>)[] = [];
  const app = {
    config: { processRole, chainPollSeconds: 2, kycAutoApproveSeconds: 30 },
    log: { error: vi.fn() },
    addHook: (_name: 'onClose', hook: () => Promise<void>) => closeHooks.push(hook),
  } as unknown as FastifyInstance;
  const autoApprove = vi.fn(async () => 0);
  const expireOverdue = vi.fn(async () => 0);
  const pollDeposits = vi.fn(async () => undefined);
  await startBackgroundJobs(app, {
    queue: createInProcessJobQueue({ log: { error: vi.fn(), warn: vi.fn() } }),
    kyc: { autoApproveOlderThan: autoApprove } as unknown as KycService,
    orders: { expireOverdue } as unknown as OrderService,
    depositWatcher: { pollOnce: pollDeposits } as unknown as DepositWatcher,
  });
  const calls = () => ({
    deposits: pollDeposits.mock.calls.length,
    expiry: expireOverdue.mock.calls.length,
    kyc: autoApprove.mock.calls.length,
  });
  const close = () => Promise.all(closeHooks.map((hook) => hook()));
  return { calls, close };
}

describe('background jobs by process role', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it.each(['all', 'worker'] as const)('run in a %s process', async (role) => {
    const jobs = await startJobsAs(role);
    await vi.advanceTimersByTimeAsync(10_000);
    const calls = jobs.calls();
    expect(calls.deposits).toBeGreaterThanOrEqual(4);
    expect(calls.expiry).toBeGreaterThanOrEqual(2);
    expect(calls.kyc).toBeGreaterThanOrEqual(4);
    await jobs.close();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(jobs.calls()).toEqual(calls);
  });

  it('never run in a web process', async () => {
    const jobs = await startJobsAs('web');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(jobs.calls()).toEqual({ deposits: 0, expiry: 0, kyc: 0 });
    await jobs.close();
  });
});

describe('a worker process over HTTP', () => {
  it('answers health checks on its port and no API route', async () => {
    const t = await createTestApp({ PROCESS_ROLE: 'worker' });
    try {
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toMatchObject({ status: 'ok' });
      for (const url of ['/api/app-config', '/api/prices', '/api/openapi.json', '/api/docs', '/']) {
        const response = await t.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.json(), url).toMatchObject({ code: 'NOT_FOUND' });
      }
      const login = await t.request({
        method: 'POST',
        url: '/api/user/login-otp/send',
        payload: { email: 'someone@example.com' },
      });
      expect(login.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('a web process still serves the API', async () => {
    const t = await createTestApp({ PROCESS_ROLE: 'web' });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/app-config' });
      expect(response.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
