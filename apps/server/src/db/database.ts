import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { defaultPoolMax } from '../config/config';
import { migrationsFolder } from '../config/server-paths';
import * as schema from './schema';
import { keepNamedStatements } from '../http/fast-paths/embedded-named-statements';

/** The one database type the services use, whichever engine is underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The handle inside `db.transaction(async (tx) => …)`. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  kind: 'embedded' | 'postgres';
  /** PostgreSQL's connection URL (the job engine opens its own pool on it); undefined when embedded. */
  url?: string;
  /** Answers true once the database responds to a query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

/**
 * Opens PostgreSQL when a URL is given, otherwise the embedded PGlite database persisted in `dataDir`
 * (or kept in memory for `dataDir: null`, which tests use). Migrations are applied before returning
 * unless `migrate` is false (production checks for pending ones instead: db/pending-migrations.ts).
 * `snapshot` (in memory only) starts from a copy of a database dumped with PGlite's `dumpDataDir()`
 * instead of creating an empty one: tests load one migrated copy rather than each running initdb.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string | null;
  snapshot?: Blob | undefined;
  migrate?: boolean;
  /** PostgreSQL only: connections kept at most (DATABASE_POOL_MAX); defaultPoolMax() when left out. */
  poolMax?: number;
}): Promise<DatabaseHandle> {
  const migrate = options.migrate ?? true;
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, migrate, options.poolMax ?? defaultPoolMax())
    : openEmbedded(options.dataDir, options.snapshot, migrate);
}

/**
 * The extensions the migrations create, loaded into every embedded database: pg_trgm, whose index finds
 * a part of an e-mail address among a hundred thousand customers (docs/performance.md, "At scale").
 */
export const EMBEDDED_EXTENSIONS = { pg_trgm };

async function openEmbedded(
  dataDir: string | null,
  snapshot: Blob | undefined,
  migrate: boolean,
): Promise<DatabaseHandle> {
  let client: PGlite;
  if (dataDir) {
    const dbDir = path.join(dataDir, 'db');
    mkdirSync(dbDir, { recursive: true });
    client = await PGlite.create(dbDir, { extensions: EMBEDDED_EXTENSIONS });
  } else {
    client = await PGlite.create({
      extensions: EMBEDDED_EXTENSIONS,
      ...(snapshot ? { loadDataDir: snapshot } : {}),
    });
  }
  const db = drizzlePglite({ client, schema });
  if (migrate) await migratePglite(db, { migrationsFolder });
  keepNamedStatements(client);
  takeTurns(client);
  const analyzing = keepStatisticsFresh(client);
  return {
    db: db as unknown as Database,
    kind: 'embedded',
    ping: () => pingWith(db),
    close: () => {
      clearInterval(analyzing);
      return client.close();
    },
  };
}

/** How often the embedded database's planner statistics are renewed. */
const EMBEDDED_ANALYZE_EVERY_MS = 10 * 60_000;

/**
 * PostgreSQL's autovacuum keeps the planner's statistics fresh; the embedded database has no such
 * background worker, so a table that grew from empty would keep being planned as empty (a sequential
 * scan where an index serves). The process that owns it runs ANALYZE every 10 minutes, queued like any
 * other call (docs/performance.md, "At scale").
 */
function keepStatisticsFresh(client: PGlite): NodeJS.Timeout {
  const timer = setInterval(() => {
    void client.query('analyze').catch(() => undefined);
  }, EMBEDDED_ANALYZE_EVERY_MS);
  timer.unref();
  return timer;
}

/** The longest the embedded database's queued calls keep the event loop from turning. */
const EMBEDDED_MAX_BUSY_MS = 20;

/**
 * PGlite runs one statement at a time, synchronously on this thread, and hands its lock from one
 * waiting call to the next without letting the event loop turn: with a hundred requests waiting, every
 * socket and timer would stall until all their queries had run (clients time out, load shedding
 * refuses everything). Calls queue here instead, first come first served, and the event loop turns
 * between two of them once they have kept it waiting EMBEDDED_MAX_BUSY_MS. A transaction is one call: its own statements run inside it.
 */
function takeTurns(client: PGlite): void {
  let last: Promise<unknown> = Promise.resolve();
  let turnedAt = performance.now();
  const letTheLoopTurn = async (): Promise<void> => {
    // Not between every two calls: each turn of the loop costs, so only once it has waited a while.
    if (performance.now() - turnedAt < EMBEDDED_MAX_BUSY_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    turnedAt = performance.now();
  };
  const turn = <T>(run: () => Promise<T>): Promise<T> => {
    const result = last.then(letTheLoopTurn).then(run);
    last = result.catch(() => undefined);
    return result;
  };
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((...args: Parameters<PGlite['query']>) => turn(() => query(...args))) as PGlite['query'];
  client.transaction = ((callback: Parameters<PGlite['transaction']>[0]) =>
    turn(() => transaction(callback))) as PGlite['transaction'];
}

async function openPostgres(databaseUrl: string, migrate: boolean, poolMax: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: poolMax,
    // While PostgreSQL is unreachable a request gets its 503 within this, rather than hanging.
    connectionTimeoutMillis: 5_000,
    // TCP keepalive finds connections a network failure left dead, so the pool replaces them.
    keepAlive: true,
  });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnavailableError(
      `Cannot reach PostgreSQL at ${redactUrl(databaseUrl)}: ${(error as Error).message}. ` +
        'Start the database or correct DATABASE_URL, then start OffZero again.',
    );
  }
  const db = drizzlePostgres({ client: pool, schema });
  // Two processes starting together must not both apply migrations: one session holds an advisory
  // lock while the migrations run.
  if (migrate) {
    const lockClient = await pool.connect();
    try {
      await lockClient.query('select pg_advisory_lock(724001)');
      await migratePostgres(db, { migrationsFolder });
    } finally {
      await lockClient.query('select pg_advisory_unlock(724001)').catch(() => undefined);
      lockClient.release();
    }
  }
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    url: databaseUrl,
    ping: () => pingWith(db),
    close: () => pool.end(),
  };
}

async function pingWith(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/** Keeps the host and database name of a connection URL, never its password. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(an unparseable URL)';
  }
}
