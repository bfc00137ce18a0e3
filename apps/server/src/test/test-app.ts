import { randomBytes } from 'node:crypto';
import { openAsBlob, rmSync } from 'node:fs';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type AppDependencies } from '../app';
import type { AppConfig } from '../config/config';
import { openDatabase, type DatabaseHandle } from '../db/database';
import { users } from '../db/schema';
import { CSRF_COOKIE, CSRF_HEADER } from '../http/csrf';
import { testConfig } from './test-config';

export { testConfig };

/**
 * API tests build the real app on a database of their own: an in-memory embedded database, or a fresh
 * PostgreSQL database created for the test file when the suite runs against TEST_DATABASE_URL.
 */

const testEnv = process.env;

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  database: DatabaseHandle;
  /** The PostgreSQL database's URL (PostgreSQL suite); undefined on the embedded database. */
  databaseUrl: string | undefined;
  /** A request with a valid CSRF token and cookie already attached. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/**
 * A repository test file's own migrated database (embedded, or a new PostgreSQL database when the suite
 * runs on PostgreSQL) holding customers with only these e-mail addresses: made before the file's tests,
 * closed and dropped after them. Read it inside tests and hooks; `userIds` follow `emails`' order.
 */
export function useTestDatabase(
  emails: string[],
): Pick<DatabaseHandle, 'db' | 'kind'> & { readonly userIds: readonly string[] } {
  let made: { handle: DatabaseHandle; drop: () => Promise<void>; userIds: string[] } | undefined;
  beforeAll(async () => {
    const { handle, drop } = await createTestDatabase();
    const rows = await handle.db
      .insert(users)
      .values(emails.map((email) => ({ email })))
      .returning({ id: users.id });
    made = { handle, drop, userIds: rows.map((row) => row.id) };
  });
  afterAll(async () => {
    await made?.handle.close();
    await made?.drop();
  });
  const current = () => {
    if (!made) throw new Error('the test database is made before the tests: read it inside a test or hook');
    return made;
  };
  return {
    get db() {
      return current().handle.db;
    },
    get kind() {
      return current().handle.kind;
    },
    get userIds() {
      return current().userIds;
    },
  };
}

export async function createTestDatabase(): Promise<{
  handle: DatabaseHandle;
  url: string | undefined;
  drop: () => Promise<void>;
}> {
  if (testEnv.TEST_DATABASE_KIND !== 'postgres') {
    const handle = await openDatabase({ dataDir: null, snapshot: await migratedSnapshot() });
    return { handle, url: undefined, drop: async () => undefined };
  }
  const baseUrl = testEnv.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is needed for the PostgreSQL suite');
  const name = `offzero_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
  return {
    handle,
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * The migrated empty database dumped once per run by database-snapshot.global-setup.ts: loading it takes
 * a fraction of the time initdb and the migrations take. Without it (a file run outside that setup) each
 * test database is created and migrated from scratch.
 */
function migratedSnapshot(): Promise<Blob> | undefined {
  const file = inject('embeddedDatabaseSnapshot');
  return file ? openAsBlob(file) : undefined;
}

export async function createTestApp(
  overrides: Record<string, string> = {},
  /** Registers extra routes before the app starts (tests of shared HTTP rules use it). */
  extend?: (app: FastifyInstance) => void,
  /** What the test chooses itself: a realtime bus, or adapters (`providers: { paypal: … }`). */
  dependencies: Pick<AppDependencies, 'realtime' | 'providers'> = {},
): Promise<TestApp> {
  const { handle, url, drop } = await createTestDatabase();
  return startTestApp(testConfig(overrides), handle, url, drop, { extend, dependencies });
}

/**
 * Another server process on the same PostgreSQL database as `first` (PostgreSQL suite only): its own
 * connection pool, price book, watcher and realtime bus. Closing it leaves the database to `first`.
 */
export async function createTestAppOnSameDatabase(
  first: TestApp,
  overrides: Record<string, string> = {},
  dependencies: Pick<AppDependencies, 'realtime' | 'providers'> = {},
): Promise<TestApp> {
  if (testEnv.TEST_DATABASE_KIND !== 'postgres' || !first.databaseUrl) {
    throw new Error('A second app on the same database needs the PostgreSQL suite');
  }
  const handle = await openDatabase({ databaseUrl: first.databaseUrl, dataDir: null });
  return startTestApp(testConfig(overrides), handle, first.databaseUrl, async () => undefined, {
    dependencies,
  });
}

async function startTestApp(
  config: AppConfig,
  handle: DatabaseHandle,
  databaseUrl: string | undefined,
  drop: () => Promise<void>,
  options: {
    extend?: ((app: FastifyInstance) => void) | undefined;
    dependencies: Pick<AppDependencies, 'realtime' | 'providers'>;
  },
): Promise<TestApp> {
  const app = await buildApp({ config, database: handle, logger: false, ...options.dependencies });
  options.extend?.(app);
  await app.ready();

  const csrf = await app.inject({ method: 'GET', url: '/api/csrf' });
  // Empty when the app refused even this (a test that makes it shed load from the first request).
  const csrfToken = csrf.statusCode === 200 ? csrf.json<{ _csrf: string }>()._csrf : '';
  const csrfCookie = csrf.cookies.find((cookie) => cookie.name === CSRF_COOKIE)?.value ?? '';

  return {
    app,
    config,
    database: handle,
    databaseUrl,
    request(options) {
      return app.inject({
        ...options,
        headers: { [CSRF_HEADER]: csrfToken, ...(options.headers ?? {}) },
        cookies: { [CSRF_COOKIE]: csrfCookie, ...(options.cookies ?? {}) },
      });
    },
    async close() {
      await app.close();
      await drop();
      rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}
