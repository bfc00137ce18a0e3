import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInProcessJobQueue } from './in-process-job-queue';

function quietLog() {
  return { error: vi.fn(), warn: vi.fn() };
}

describe('the in-process job queue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('retries a throwing job with exponential backoff, then parks it with its error', async () => {
    const runs: { job: string; outcome: string }[] = [];
    const queue = createInProcessJobQueue({
      log: quietLog(),
      onRun: (job, outcome) => runs.push({ job, outcome }),
    });
    const triedAt: number[] = [];
    const start = Date.now();
    queue.register(
      'always-fails',
      async () => {
        triedAt.push(Date.now() - start);
        throw new Error('provider down');
      },
      { retryLimit: 3, retryDelaySeconds: 1, retryBackoff: true },
    );
    await queue.start();
    await queue.send('always-fails', { n: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(triedAt).toEqual([0]);
    expect(await queue.failed()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(triedAt).toEqual([0, 1_000]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(triedAt).toEqual([0, 1_000, 3_000]);
    await vi.advanceTimersByTimeAsync(3_999);
    expect(triedAt).toHaveLength(3);
    expect(await queue.failed()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(triedAt).toEqual([0, 1_000, 3_000, 7_000]);

    const parked = await queue.failed();
    expect(parked).toHaveLength(1);
    expect(parked[0]).toMatchObject({ name: 'always-fails', error: 'provider down', attempts: 4 });
    expect(parked[0]?.id).toEqual(expect.any(String));
    expect(parked[0]?.failedAt).toBeInstanceOf(Date);
    expect(runs).toEqual(Array.from({ length: 4 }, () => ({ job: 'always-fails', outcome: 'error' })));

    // Parked means parked: no further tries.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(triedAt).toHaveLength(4);
    await queue.stop();
  });

  it('a job that fails then succeeds is not parked', async () => {
    const queue = createInProcessJobQueue({ log: quietLog() });
    let tries = 0;
    queue.register(
      'flaky',
      async () => {
        tries += 1;
        if (tries < 3) throw new Error('not yet');
      },
      { retryLimit: 5, retryDelaySeconds: 1, retryBackoff: false },
    );
    await queue.start();
    await queue.send('flaky');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(tries).toBe(3);
    expect(await queue.failed()).toEqual([]);
    await queue.stop();
  });

  it('runs a periodic job once per period, never two runs at once, and not after stop', async () => {
    const queue = createInProcessJobQueue({ log: quietLog() });
    let runs = 0;
    let concurrent = 0;
    let maxConcurrent = 0;
    queue.register('tick', async () => {
      runs += 1;
      concurrent += 1;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      await new Promise((resolve) => setTimeout(resolve, 100));
      concurrent -= 1;
    });
    queue.schedule('tick', 1_000);
    await queue.start();
    await vi.advanceTimersByTimeAsync(10_050);
    expect(runs).toBe(10);
    expect(maxConcurrent).toBe(1);

    // A run longer than the period is not doubled by the next tick.
    let slowRuns = 0;
    const slow = createInProcessJobQueue({ log: quietLog() });
    slow.register('slow', async () => {
      slowRuns += 1;
      await new Promise((resolve) => setTimeout(resolve, 2_500));
    });
    slow.schedule('slow', 1_000);
    await slow.start();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(slowRuns).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(slowRuns).toBe(2);

    const runsAtStop = runs;
    const stoppingTick = queue.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    await stoppingTick;
    expect(runs).toBe(runsAtStop);
    const stopping = slow.stop();
    await vi.advanceTimersByTimeAsync(5_000);
    await stopping;
  });

  it('a singleton key already queued or running is not queued twice', async () => {
    const queue = createInProcessJobQueue({ log: quietLog() });
    const seen: unknown[] = [];
    queue.register('deliver', async (data) => {
      seen.push(data);
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    await queue.start();
    await queue.send('deliver', { to: 'a' }, { singletonKey: 'a' });
    await queue.send('deliver', { to: 'a again' }, { singletonKey: 'a' });
    await queue.send('deliver', { to: 'b' }, { singletonKey: 'b' });
    await vi.advanceTimersByTimeAsync(200);
    expect(seen).toEqual([{ to: 'a' }, { to: 'b' }]);
    await queue.send('deliver', { to: 'a later' }, { singletonKey: 'a' });
    await vi.advanceTimersByTimeAsync(200);
    expect(seen).toEqual([{ to: 'a' }, { to: 'b' }, { to: 'a later' }]);
    await queue.stop();
  });

  it('stopping waits for a run in progress, but not for ever', async () => {
    const queue = createInProcessJobQueue({ log: quietLog() });
    queue.register('hangs', () => new Promise(() => undefined));
    await queue.start();
    await queue.send('hangs');
    await vi.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stopping = queue.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(stopped).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await stopping;
    expect(stopped).toBe(true);
  });
});
