import { PgBoss, type Job, type JobResult } from 'pg-boss';
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

/** pg-boss keeps its tables in a schema of its own, apart from the app's migrations. */
export const PG_BOSS_SCHEMA = 'pgboss';

/**
 * Jobs of one name a worker takes per fetch, each run and settled on its own. While fetches come back
 * full it fetches again at once: a queue with a backlog (monitoring batches sent by several web
 * processes, a burst of webhooks) is worked continuously, not one job per polling interval.
 */
export const FETCH_BATCH = 10;

/** Completed runs are kept this long (periodic jobs add thousands a day); failed ones until looked at. */
export const COMPLETED_KEPT_SECONDS = 24 * 60 * 60;

interface Registered {
  handler: JobHandler;
  retry: Required<JobRetryOptions>;
}

/**
 * Durable jobs on PostgreSQL with pg-boss. Every process may send; processes that `register` a
 * handler work that job. A periodic job is sent by every process that schedules it, each tick, with
 * pg-boss's throttling (`sendThrottled`: one job per name and time slot of the period, the slot taken
 * from the database's clock and enforced by a unique index), so it runs once per period across all
 * processes; a failed try is retried with backoff and, after the last, stays `failed` with its error.
 */
export function createPgBossJobQueue(
  options: JobQueueOptions & { connectionString: string; pollingIntervalSeconds?: number },
): JobQueue {
  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema: PG_BOSS_SCHEMA,
    max: 4,
    application_name: 'offzero-jobs',
  });
  boss.on('error', (error) => options.log.error({ err: error }, 'job queue error'));
  const handlers = new Map<string, Registered>();
  const schedules: { name: string; everyMs: number }[] = [];
  const intervals: NodeJS.Timeout[] = [];
  const ensured = new Map<string, Promise<void>>();
  let started = false;
  let stopped = false;

  function ensureQueue(name: string): Promise<void> {
    let done = ensured.get(name);
    if (!done) {
      done = createOrUpdateQueue(boss, name, handlers.get(name));
      ensured.set(name, done);
      done.catch(() => ensured.delete(name));
    }
    return done;
  }

  async function work(name: string): Promise<void> {
    const registered = handlers.get(name);
    if (!registered) return;
    await ensureQueue(name);
    await boss.work(
      name,
      {
        pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
        batchSize: FETCH_BATCH,
        burstWhenBatchFull: true,
        perJobResults: true,
      },
      (jobs) => runFetchedJobs(options, name, registered, jobs),
    );
  }

  async function tickEvery(name: string, everyMs: number): Promise<void> {
    await ensureQueue(name);
    const send = () => {
      if (stopped) return;
      tick(name, everyMs).catch((error: unknown) =>
        options.log.error({ err: error, job: name }, 'could not schedule job'),
      );
    };
    // No send at start (as the in-process engine): the first run comes half a period later, so a
    // process that starts does not race work its caller is doing right then. Twice a period: a timer
    // drifting across a slot's edge cannot skip a slot, and sends within one slot are one job.
    const interval = setInterval(send, Math.max(500, everyMs / 2));
    interval.unref();
    intervals.push(interval);
  }

  async function tick(name: string, everyMs: number): Promise<void> {
    const seconds = Math.max(1, Math.round(everyMs / 1000));
    await boss.sendThrottled(name, null, null, seconds, 'periodic');
  }

  return {
    kind: 'pg-boss',
    register(name, handler, retry = {}) {
      handlers.set(name, { handler, retry: { ...DEFAULT_RETRY, ...retry } });
      if (started)
        void work(name).catch((error: unknown) =>
          options.log.error({ err: error, job: name }, 'could not work job'),
        );
    },
    schedule(name, everyMs) {
      if (!Number.isFinite(everyMs) || everyMs <= 0)
        throw new RangeError(`Bad period for ${name}: ${everyMs}`);
      schedules.push({ name, everyMs });
      if (started)
        void tickEvery(name, everyMs).catch((error: unknown) =>
          options.log.error({ err: error, job: name }, 'could not schedule job'),
        );
    },
    async send(name, data = null, sendOptions = {}) {
      await ensureQueue(name);
      await boss.send(name, data, sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {});
    },
    async start() {
      if (started) return;
      started = true;
      await boss.start();
      for (const name of handlers.keys()) await work(name);
      for (const { name, everyMs } of schedules) await tickEvery(name, everyMs);
    },
    async stop() {
      stopped = true;
      for (const interval of intervals) clearInterval(interval);
      if (started) await boss.stop({ graceful: true, timeout: STOP_GRACE_MS });
    },
    async prune(olderThanSeconds = COMPLETED_KEPT_SECONDS) {
      return started ? pruneCompleted(boss, olderThanSeconds) : 0;
    },
    async failed() {
      return started ? failedJobs(boss) : [];
    },
  };
}

function outputMessage(output: unknown): string {
  if (output && typeof output === 'object' && 'message' in output) return String(output.message);
  return output === null || output === undefined ? 'failed' : JSON.stringify(output);
}

/** The queue of a job, created by the first process that needs it; its retries set by the one working it. */
async function createOrUpdateQueue(
  boss: PgBoss,
  name: string,
  registered: Registered | undefined,
): Promise<void> {
  const retry = registered?.retry ?? DEFAULT_RETRY;
  const queueOptions = {
    retryLimit: retry.retryLimit,
    retryDelay: retry.retryDelaySeconds,
    retryBackoff: retry.retryBackoff,
    // pg-boss would delete failed jobs with completed ones; `prune()` deletes only completed ones.
    deleteAfterSeconds: 0,
  };
  if (await boss.getQueue(name)) {
    // The process that works the job decides its retries.
    if (registered) await boss.updateQueue(name, queueOptions);
    return;
  }
  await boss.createQueue(name, queueOptions).catch(async (error: unknown) => {
    // Another process created it at the same moment.
    if (!(await boss.getQueue(name))) throw error;
  });
}

/** Runs the jobs of one fetch one after another and answers each one's outcome. */
async function runFetchedJobs(
  options: JobQueueOptions,
  name: string,
  registered: Registered,
  jobs: Job<unknown>[],
): Promise<JobResult[]> {
  const results: JobResult[] = [];
  for (const job of jobs) {
    try {
      const output: unknown = await registered.handler(job.data);
      options.onRun?.(name, 'ok');
      results.push({ id: job.id, status: 'completed', output });
    } catch (error) {
      options.onRun?.(name, 'error');
      options.log.warn({ err: error, job: name, retryCount: job.retryCount }, 'job failed');
      // Failed alone: the others of the fetch keep their outcome; this one is retried or parked.
      results.push({
        id: job.id,
        status: 'failed',
        output: error instanceof Error ? error : new Error(errorText(error)),
      });
    }
  }
  return results;
}

/** Deletes completed and cancelled runs older than `olderThanSeconds`; answers how many. */
async function pruneCompleted(boss: PgBoss, olderThanSeconds: number): Promise<number> {
  const { rows } = await boss.getDb().executeSql(
    `with gone as (
       delete from ${PG_BOSS_SCHEMA}.job
       where state in ('completed', 'cancelled') and completed_on < now() - $1 * interval '1 second'
       returning 1)
     select count(*)::int as count from gone`,
    [olderThanSeconds],
  );
  return Number((rows[0] as { count?: number } | undefined)?.count ?? 0);
}

/** The newest 200 jobs that failed every try. */
async function failedJobs(boss: PgBoss): Promise<ParkedJob[]> {
  const { rows } = await boss.getDb().executeSql(
    `select id, name, output, completed_on, retry_count from ${PG_BOSS_SCHEMA}.job
       where state = 'failed' order by completed_on desc nulls last limit 200`,
  );
  return (
    rows as {
      id: string;
      name: string;
      output: unknown;
      completed_on: Date | null;
      retry_count: number;
    }[]
  ).map((row): ParkedJob => ({
    id: row.id,
    name: row.name,
    error: outputMessage(row.output),
    failedAt: row.completed_on ?? new Date(0),
    attempts: row.retry_count + 1,
  }));
}
