import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/config';
import type { DatabaseHandle } from '../db/database';
import { findPendingMigrations, readMigrationJournal } from '../db/pending-migrations';

/** Each dependency must answer a readiness probe within this (probes themselves time out in 1–2 s). */
export const CHECK_TIMEOUT_MS = 1_500;

/** Each check is "ok" or a short reason, never a secret (no URL, no driver message). */
export interface ReadinessChecks {
  database: string;
  migrations: string;
  /**
   * Only when REDIS_URL is set: "ok", or "degraded: <reason>" while Redis does not answer. The process
   * serves on without it (rate limits counted in each process, realtime events kept to their own
   * process), so an outage degrades every process but takes none out of the load balancer.
   */
  redis?: string;
  /** "draining" once the process is shutting down. */
  process: string;
}

export interface ReadinessReport {
  /** "degraded": ready, with a dependency it can serve without (Redis) down. */
  status: 'ok' | 'degraded' | 'unavailable';
  checks: ReadinessChecks;
  /** Kept from the first health answer, which operators' checks already read. */
  database: { kind: DatabaseHandle['kind']; up: boolean };
  mode: AppConfig['mode'];
}

export interface Readiness {
  /** Whether this process should be sent traffic: database, migrations, not draining (and Redis's state). */
  check(): Promise<ReadinessReport>;
  /** From now on readiness answers 503, so load balancers stop sending before the server closes. */
  drain(): void;
  close(): Promise<void>;
}

const OK = 'ok';
const DEGRADED = 'degraded';

/**
 * Readiness of this process. The migrations check is the seam tests use (`pendingMigrations`); by
 * default it compares the database with the migrations this build ships (db/pending-migrations.ts).
 */
export function createReadiness(deps: {
  database: Pick<DatabaseHandle, 'db' | 'kind' | 'ping'>;
  mode: AppConfig['mode'];
  redisUrl: string | undefined;
  log: FastifyBaseLogger;
  pendingMigrations?: () => Promise<string[]>;
  timeoutMs?: number;
}): Readiness {
  const timeoutMs = deps.timeoutMs ?? CHECK_TIMEOUT_MS;
  let journal: ReturnType<typeof readMigrationJournal> | undefined;
  const pendingMigrations =
    deps.pendingMigrations ??
    (() => findPendingMigrations(deps.database.db, (journal ??= readMigrationJournal())));
  // Applied migrations never become pending again for this build, so once none is pending the query
  // is not repeated at every probe.
  let migrationsDone = false;
  let draining = false;
  const redis = deps.redisUrl ? createRedisProbe(deps.redisUrl, deps.log, timeoutMs) : undefined;

  async function checkDatabase(): Promise<{ database: string; migrations: string }> {
    const database = await withTimeout(deps.database.ping(), timeoutMs).then(
      (up) => (up === 'timeout' ? `no answer within ${timeoutMs} ms` : up ? OK : 'unreachable'),
      () => 'unreachable',
    );
    if (database !== OK) return { database, migrations: 'not checked (database unavailable)' };
    if (migrationsDone) return { database, migrations: OK };
    const migrations = await withTimeout(pendingMigrations(), timeoutMs).then(
      (pending) => {
        if (pending === 'timeout') return `not checked (no answer within ${timeoutMs} ms)`;
        if (pending.length === 0) {
          migrationsDone = true;
          return OK;
        }
        return `${pending.length} pending: ${pending.join(', ')}`;
      },
      () => 'not checked (query failed)',
    );
    return { database, migrations };
  }

  return {
    async check() {
      const [fromDatabase, redisCheck] = await Promise.all([checkDatabase(), redis?.check()]);
      const checks: ReadinessChecks = {
        ...fromDatabase,
        ...(redisCheck === undefined ? {} : { redis: redisCheck === OK ? OK : `${DEGRADED}: ${redisCheck}` }),
        process: draining ? 'draining' : OK,
      };
      const { redis: redisState, ...required } = checks;
      const ready = Object.values(required).every((value) => value === OK);
      return {
        status: !ready ? 'unavailable' : redisState === undefined || redisState === OK ? 'ok' : 'degraded',
        checks,
        database: { kind: deps.database.kind, up: fromDatabase.database === OK },
        mode: deps.mode,
      };
    },
    drain() {
      if (draining) return;
      draining = true;
      deps.log.info('draining: readiness answers 503 from now on');
    },
    close: async () => redis?.close(),
  };
}

/**
 * A connection of its own, opened at the first probe, for PING. While Redis is down ioredis keeps
 * reconnecting; the outage is logged once, and each probe waits at most `timeoutMs`.
 */
function createRedisProbe(url: string, log: FastifyBaseLogger, timeoutMs: number) {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => Math.min(attempt * 500, 5_000),
    connectionName: 'offzero-health',
  });
  let failing = false;
  client.on('error', (error: Error) => {
    if (failing) return;
    failing = true;
    log.warn({ err: error }, 'redis unavailable (readiness); retrying');
  });
  client.on('ready', () => {
    if (failing) log.info('redis reachable again (readiness)');
    failing = false;
  });
  return {
    async check(): Promise<string> {
      const answer = await withTimeout(client.ping(), timeoutMs).catch(() => 'failed');
      if (answer === 'PONG') return OK;
      return client.status === 'ready' ? `no answer within ${timeoutMs} ms` : 'unreachable';
    },
    close: async () => {
      client.disconnect();
    },
  };
}

/** The promise's value, or 'timeout' if it takes longer than `ms`. */
async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
