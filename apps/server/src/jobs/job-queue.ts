/**
 * Background work as named jobs (docs/design.md): one interface, two engines. On PostgreSQL the
 * jobs are durable in pg-boss's own schema (`pg-boss-job-queue.ts`); on the embedded database, which
 * only one process can open, they run in this process (`in-process-job-queue.ts`).
 */

/** What a handler does when it throws: tried again `retryLimit` times, then parked. */
export interface JobRetryOptions {
  /** Further tries after the first failure. */
  retryLimit?: number;
  /** The wait before the first retry. */
  retryDelaySeconds?: number;
  /** Doubles the wait after each failure. */
  retryBackoff?: boolean;
}

export const DEFAULT_RETRY: Required<JobRetryOptions> = {
  retryLimit: 3,
  retryDelaySeconds: 1,
  retryBackoff: true,
};

/** Stopping waits this long for runs in progress before the database closes under them. */
export const STOP_GRACE_MS = 10_000;

export type JobHandler = (data: unknown) => Promise<unknown>;

export type JobRunOutcome = 'ok' | 'error';

/** A job that failed every try: kept with its error until someone looks at it. */
export interface ParkedJob {
  id: string;
  name: string;
  error: string;
  failedAt: Date;
  /** Tries made, the first included. */
  attempts: number;
}

export interface JobQueueOptions {
  /** Called after every try of every job (metrics count them). */
  onRun?: (job: string, outcome: JobRunOutcome) => void;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface JobQueue {
  readonly kind: 'in-process' | 'pg-boss';
  /** This process works jobs of this name. Before `start()`. */
  register(name: string, handler: JobHandler, options?: JobRetryOptions): void;
  /**
   * Runs the registered job `name` once every `everyMs`, once per period across all processes that
   * schedule it (not once per process). Before `start()`.
   */
  schedule(name: string, everyMs: number): void;
  /** Queues one run. A `singletonKey` already queued or running is not queued twice. */
  send(name: string, data?: object | null, options?: { singletonKey?: string }): Promise<void>;
  start(): Promise<void>;
  /** Stops scheduling and working; a run under way is given a moment to finish. */
  stop(): Promise<void>;
  /** Deletes records of runs that completed more than `olderThanSeconds` ago (parked ones stay). */
  prune(olderThanSeconds?: number): Promise<number>;
  /** Jobs that failed every try, newest first. */
  failed(): Promise<ParkedJob[]>;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
