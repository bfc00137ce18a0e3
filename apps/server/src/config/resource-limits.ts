import os from 'node:os';
import v8 from 'node:v8';

/** Defaults that follow the machine: database connections and the memory at which load is shed. */

export const MB = 1024 * 1024;

/**
 * How many PostgreSQL connections a process keeps at most, unless DATABASE_POOL_MAX says: twice the
 * machine's cores, from 4 to 10. Past a few per core, more connections only add PostgreSQL backends
 * competing for the same cores, and each one counts against the database's connection limit, which
 * every process shares. No size has proven faster in `npm run bench` (docs/performance.md): the default
 * is about holding fewer of the database's connections.
 */
export function defaultPoolMax(): number {
  return Math.min(10, Math.max(4, 2 * os.availableParallelism()));
}

/** Generous: shed only when the heap nears V8's own limit, where the process would soon crash. */
export function defaultMaxHeapUsedBytes(): number {
  return Math.floor(v8.getHeapStatistics().heap_size_limit * 0.9);
}

/**
 * Generous: near the container's memory limit when there is one (its OOM killer would end the process);
 * off otherwise (Node reports an unlimited process as a huge number).
 */
export function defaultMaxRssBytes(): number {
  const limit = process.constrainedMemory();
  return limit > 0 && limit < os.totalmem() ? Math.floor(limit * 0.9) : 0;
}
