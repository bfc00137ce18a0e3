import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import Fastify from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { freePort } from '../test/throwaway-redis';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  isDatabaseUnavailable,
  registerErrorHandling,
} from './errors';

const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';
const UNAVAILABLE = { message: DATABASE_UNAVAILABLE_MESSAGE, code: 'UNAVAILABLE' };

const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['a reset connection', withCode('ECONNRESET')],
    [
      'an administrator shutdown (57P01)',
      withCode('57P01', 'terminating connection due to administrator command'),
    ],
    ['a crash shutdown (57P02)', withCode('57P02')],
    ['a database starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['too many connections (53300)', withCode('53300')],
    ['a connection exception (08006)', withCode('08006')],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a connection timeout', new Error('Connection terminated due to connection timeout')],
    [
      'a driver error wrapped by Drizzle',
      Object.assign(new Error('Failed query: select 1'), { cause: withCode('57P01') }),
    ],
    [
      'a refusal on every address',
      Object.assign(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]), {
        code: 'ECONNREFUSED',
      }),
    ],
    [
      'a refusal on every address, without a code of its own',
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]),
    ],
  ])('is true for %s', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a plain bug', new Error('database password is hunter2')],
    ['a syntax error (42601)', withCode('42601', 'syntax error at or near "selec"')],
    ['a unique violation (23505)', withCode('23505', 'duplicate key value')],
    ['a serialization failure (40001)', withCode('40001')],
    ['a wrapped unique violation', Object.assign(new Error('Failed query'), { cause: withCode('23505') })],
    ['not an error', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('is false for %s', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('survives a cause that points at itself', () => {
    const error: Error & { cause?: unknown } = new Error('loop');
    error.cause = error;
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('a request whose database cannot be reached', () => {
  it('answers 503 UNAVAILABLE with Retry-After (a real pool on a closed port), and a bug still answers 500', async () => {
    const pool = new pg.Pool({
      connectionString: `postgres://offzero@127.0.0.1:${await freePort()}/offzero`,
      connectionTimeoutMillis: 2_000,
    });
    const db = drizzle({ client: pool });
    const app = Fastify({ logger: false });
    registerErrorHandling(app);
    app.get('/api/test/needs-database', async () => db.execute(sql`select 1`));
    app.get('/api/test/boom', async () => {
      throw new Error('a bug');
    });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/test/needs-database' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual(UNAVAILABLE);
      expect(response.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
      const bug = await app.inject({ method: 'GET', url: '/api/test/boom' });
      expect(bug.statusCode).toBe(500);
      expect(bug.json()).toMatchObject({ code: 'INTERNAL' });
    } finally {
      await app.close();
      await pool.end();
    }
  });
});

describe.skipIf(!IS_POSTGRES)('PostgreSQL dropping the connections (PostgreSQL suite)', () => {
  let t: TestApp;
  let customer: RegisteredCustomer;
  beforeAll(async () => {
    t = await createTestApp({}, (app) => {
      // A query still running when the connections are cut.
      app.get('/api/test/slow-query', async () => {
        await t.database.db.execute(sql`select pg_sleep(10)`);
        return { ok: true };
      });
    });
    customer = await registerCustomer(t, 'outage@example.com');
  });
  afterAll(async () => t?.close());

  /** What an operator restarting PostgreSQL does to the app's sessions: every backend is terminated. */
  async function terminateAppConnections(): Promise<number> {
    const admin = new pg.Client({ connectionString: t.databaseUrl });
    await admin.connect();
    try {
      const result = await admin.query<{ terminated: boolean }>(
        `select pg_terminate_backend(pid) as terminated from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`,
      );
      return result.rows.filter((row) => row.terminated).length;
    } finally {
      await admin.end();
    }
  }

  // The order list reads the database on every call (a checked session may be answered from memory).
  const me = () =>
    t.request({ method: 'GET', url: `/api/order/list?userId=${customer.userId}`, headers: customer.auth });

  it('answers a query cut off mid-way with 503, then serves the next requests without a restart', async () => {
    expect((await me()).statusCode).toBe(200);

    const slow = t.app.inject({ method: 'GET', url: '/api/test/slow-query' });
    // Wait until the slow query is running, then cut every connection of the app.
    await vi.waitFor(
      async () => {
        const admin = new pg.Client({ connectionString: t.databaseUrl });
        await admin.connect();
        const running = await admin.query(
          `select 1 from pg_stat_activity where datname = current_database() and query like '%pg_sleep(10)%'
             and pid <> pg_backend_pid()`,
        );
        await admin.end();
        expect(running.rowCount).toBeGreaterThan(0);
      },
      { timeout: 5_000, interval: 50 },
    );
    expect(await terminateAppConnections()).toBeGreaterThan(0);

    const cut = await slow;
    expect(cut.statusCode).toBe(503);
    expect(cut.json()).toEqual(UNAVAILABLE);
    expect(cut.headers['retry-after']).toBe(String(DATABASE_RETRY_AFTER_SECONDS));

    // The pool drops the dead connections and opens new ones by itself: never a 500 meanwhile.
    const statuses: number[] = [];
    await vi.waitFor(
      async () => {
        const response = await me();
        statuses.push(response.statusCode);
        expect(response.statusCode).toBe(200);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    const readiness = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(readiness.statusCode).toBe(200);
  }, 30_000);

  it('recovers from idle connections being terminated', async () => {
    expect((await me()).statusCode).toBe(200);
    expect(await terminateAppConnections()).toBeGreaterThan(0);
    const statuses: number[] = [];
    await vi.waitFor(
      async () => {
        const response = await me();
        statuses.push(response.statusCode);
        expect(response.statusCode).toBe(200);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
  }, 30_000);
});
