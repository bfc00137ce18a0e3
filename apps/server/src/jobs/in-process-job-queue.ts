import { randomUUID } from 'node:crypto';
import {
  DEFAULT_RETRY,
  errorText,
  type JobHandler,
  type JobQueue,
  type JobQueueOptions,
  type JobRetryOptions,
  type ParkedJob,
  STOP_GRACE_MS,
} from './job-queue';

/** Parked jobs kept in memory: the oldest are forgotten past this many. */
const MAX_PARKED = 1000;

interface Registered {
  handler: JobHandler;
  retry: Required<JobRetryOptions>;
}

/** Waits for the runs in progress to end, for STOP_GRACE_MS at most. */
async function settledOrGraceOver(running: ReadonlySet<Promise<void>>): Promise<void> {
  let grace: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled([...running]),
    new Promise<void>((resolve) => {
      grace = setTimeout(resolve, STOP_GRACE_MS);
      grace.unref();
    }),
  ]);
  clearTimeout(grace);
}

/**
 * The job queue of the embedded database, which one process opens: jobs run in this process, a
 * failed try is retried after `retryDelaySeconds` (doubling with `retryBackoff`), and a job that fails
 * every try is parked in memory with its error (`failed()`), never dropped silently.
 */
export function createInProcessJobQueue(options: JobQueueOptions & { now?: () => Date }): JobQueue {
  const now = options.now ?? (() => new Date());
  const handlers = new Map<string, Registered>();
  const schedules: { name: string; everyMs: number }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const intervals: NodeJS.Timeout[] = [];
  /** Singleton keys queued or running. */
  const pendingKeys = new Set<string>();
  const running = new Set<Promise<void>>();
  const parked: ParkedJob[] = [];
  let started = false;
  let stopped = false;

  function later(ms: number, run: () => void): void {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    timers.add(timer);
  }

  function attempt(id: string, name: string, data: unknown, attemptNo: number, key?: string): void {
    const registered = handlers.get(name);
    if (!registered) {
      options.log.warn({ job: name }, 'no handler for job in this process, dropped');
      if (key) pendingKeys.delete(key);
      return;
    }
    const run = (async () => {
      try {
        await registered.handler(data);
        options.onRun?.(name, 'ok');
        if (key) pendingKeys.delete(key);
      } catch (error) {
        options.onRun?.(name, 'error');
        const { retryLimit, retryDelaySeconds, retryBackoff } = registered.retry;
        if (attemptNo <= retryLimit && !stopped) {
          const delayMs = retryDelaySeconds * 1000 * (retryBackoff ? 2 ** (attemptNo - 1) : 1);
          options.log.warn({ err: error, job: name, attempt: attemptNo }, 'job failed, will retry');
          later(delayMs, () => attempt(id, name, data, attemptNo + 1, key));
          return;
        }
        if (key) pendingKeys.delete(key);
        options.log.error({ err: error, job: name, attempts: attemptNo }, 'job failed every try, parked');
        parked.unshift({ id, name, error: errorText(error), failedAt: now(), attempts: attemptNo });
        parked.length = Math.min(parked.length, MAX_PARKED);
      }
    })();
    running.add(run);
    void run.finally(() => running.delete(run));
  }

  function enqueue(name: string, data: unknown, singletonKey?: string): void {
    if (stopped) return;
    const key = singletonKey === undefined ? undefined : `${name}\u0000${singletonKey}`;
    if (key) {
      if (pendingKeys.has(key)) return;
      pendingKeys.add(key);
    }
    const id = randomUUID();
    // Off the caller's stack, without a timer: a run is due as soon as it is queued.
    queueMicrotask(() => {
      if (stopped) {
        if (key) pendingKeys.delete(key);
        return;
      }
      attempt(id, name, data, 1, key);
    });
  }

  return {
    kind: 'in-process',
    register(name, handler, retry = {}) {
      handlers.set(name, { handler, retry: { ...DEFAULT_RETRY, ...retry } });
    },
    schedule(name, everyMs) {
      if (!Number.isFinite(everyMs) || everyMs <= 0)
        throw new RangeError(`Bad period for ${name}: ${everyMs}`);
      schedules.push({ name, everyMs });
      if (started) startSchedule(name, everyMs);
    },
    async send(name, data = null, sendOptions = {}) {
      enqueue(name, data, sendOptions.singletonKey);
    },
    async start() {
      if (started) return;
      started = true;
      for (const { name, everyMs } of schedules) startSchedule(name, everyMs);
    },
    async stop() {
      stopped = true;
      for (const interval of intervals) clearInterval(interval);
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await settledOrGraceOver(running);
    },
    // Completed runs leave no record here.
    async prune() {
      return 0;
    },
    async failed() {
      return parked.map((job) => ({ ...job }));
    },
  };

  function startSchedule(name: string, everyMs: number): void {
    // One run per period: a run still going (or retrying) when the next period starts is not doubled.
    const interval = setInterval(() => enqueue(name, null, 'periodic'), everyMs);
    interval.unref();
    intervals.push(interval);
  }
}
