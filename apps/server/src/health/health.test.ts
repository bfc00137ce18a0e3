import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { Database } from '../db/database';
import { readMigrationJournal } from '../db/pending-migrations';
import { createTestApp, type TestApp } from '../test/test-app';
import { shutDownGracefully } from './graceful-shutdown';
import { createReadiness } from './health.service';

const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';
const REDIS_URL = process.env.REDIS_URL;
const DATABASE_KIND = IS_POSTGRES ? 'postgres' : 'embedded';
const ALL_OK = { database: 'ok', migrations: 'ok', process: 'ok' };

/** A loopback port nothing listens on. */
async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function ready(t: TestApp, url = '/api/health/ready') {
  const response = await t.app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: response.json() };
}

describe('health endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('GET /api/health/live answers ok while the process runs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('GET /api/health/ready answers ok with every check, and GET /api/health is the same', async () => {
    const expected = {
      status: 'ok',
      checks: ALL_OK,
      database: { kind: DATABASE_KIND, up: true },
      mode: 'demo',
    };
    expect(await ready(t)).toEqual({ status: 200, body: expected });
    expect(await ready(t, '/api/health')).toEqual({ status: 200, body: expected });
  });
});

describe('readiness turns 503', () => {
  it('while the process drains, and liveness and the API stay up until it closes', async () => {
    const t = await createTestApp();
    try {
      expect((await ready(t)).status).toBe(200);
      t.app.drain();
      for (const url of ['/api/health/ready', '/api/health']) {
        expect(await ready(t, url)).toEqual({
          status: 503,
          body: {
            status: 'unavailable',
            checks: { ...ALL_OK, process: 'draining' },
            database: { kind: DATABASE_KIND, up: true },
            mode: 'demo',
          },
        });
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/app-config' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('while a migration is pending, and turns ok again once it is applied', async () => {
    const t = await createTestApp();
    try {
      // The database as an older release left it: without the newest migration's record.
      const newest = readMigrationJournal().at(-1)!;
      const removed = await t.database.db.execute(
        sql`delete from drizzle.__drizzle_migrations
            where created_at = (select max(created_at) from drizzle.__drizzle_migrations)
            returning hash, created_at`,
      );
      const [row] = (removed as { rows: { hash: string; created_at: string | number }[] }).rows;
      expect(row).toBeDefined();

      const pending = await ready(t);
      expect(pending.status).toBe(503);
      expect(pending.body).toMatchObject({
        status: 'unavailable',
        checks: { database: 'ok', migrations: `1 pending: ${newest.tag}`, process: 'ok' },
        database: { up: true },
      });

      // `npm run db:migrate` records it again.
      await t.database.db.execute(
        sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${row!.hash}, ${row!.created_at})`,
      );
      expect((await ready(t)).body).toMatchObject({ status: 'ok', checks: ALL_OK });
    } finally {
      await t.close();
    }
  });

  it.runIf(REDIS_URL)('is ok when the configured Redis answers', async () => {
    const t = await createTestApp({ REDIS_URL: REDIS_URL! });
    try {
      expect(await ready(t)).toMatchObject({
        status: 200,
        body: { status: 'ok', checks: { ...ALL_OK, redis: 'ok' } },
      });
    } finally {
      await t.close();
    }
  });
});

describe('readiness while Redis is down', () => {
  it('stays 200 with Redis reported degraded, the API serving on, without naming its address', async () => {
    const port = await unusedPort();
    const t = await createTestApp({ REDIS_URL: `redis://:secret-password@127.0.0.1:${port}` });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        status: 'degraded',
        checks: { ...ALL_OK, redis: 'degraded: unreachable' },
      });
      expect(response.body).not.toContain('secret-password');
      expect(response.body).not.toContain(String(port));
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      // The API answers meanwhile: a price, and a state-changing call (its limits counted in memory).
      expect((await t.app.inject({ method: 'GET', url: '/api/price' })).statusCode).toBe(200);
      const send = await t.request({
        method: 'POST',
        url: '/api/user/login-otp/send',
        payload: { email: 'redis.down@example.com' },
      });
      expect(send.statusCode, send.body).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('still turns 503 when the database is down too: Redis alone never keeps a process ready', async () => {
    const readiness = createReadiness({
      database: { db: undefined as never, kind: 'postgres', ping: async () => false },
      mode: 'production',
      redisUrl: `redis://127.0.0.1:${await unusedPort()}`,
      log: { info: vi.fn(), warn: vi.fn() } as unknown as FastifyBaseLogger,
      pendingMigrations: async () => [],
      timeoutMs: 300,
    });
    try {
      const report = await readiness.check();
      expect(report.status).toBe('unavailable');
      expect(report.checks).toMatchObject({ database: 'unreachable', redis: 'degraded: unreachable' });
    } finally {
      await readiness.close();
    }
  });
});

describe('readiness checks (createReadiness)', () => {
  const log = { info: vi.fn(), warn: vi.fn() } as unknown as FastifyBaseLogger;
  const database = (ping: () => Promise<boolean>) => ({
    db: {} as Database,
    kind: 'postgres' as const,
    ping,
  });

  it('says a database that does not answer in time timed out, and checks nothing behind it', async () => {
    const pendingMigrations = vi.fn(async () => []);
    const readiness = createReadiness({
      database: database(() => new Promise<boolean>(() => undefined)),
      mode: 'production',
      redisUrl: undefined,
      log,
      pendingMigrations,
      timeoutMs: 50,
    });
    expect(await readiness.check()).toEqual({
      status: 'unavailable',
      checks: {
        database: 'no answer within 50 ms',
        migrations: 'not checked (database unavailable)',
        process: 'ok',
      },
      database: { kind: 'postgres', up: false },
      mode: 'production',
    });
    expect(pendingMigrations).not.toHaveBeenCalled();
  });

  it('says an unreachable database is unreachable, never why (driver messages may hold URLs)', async () => {
    const readiness = createReadiness({
      database: database(async () => false),
      mode: 'production',
      redisUrl: undefined,
      log,
      pendingMigrations: async () => [],
    });
    expect((await readiness.check()).checks.database).toBe('unreachable');
  });

  it('names pending migrations, and stops asking once none is pending', async () => {
    const pendingMigrations = vi
      .fn<() => Promise<string[]>>()
      .mockResolvedValueOnce(['0007_payouts', '0008_outbox'])
      .mockResolvedValue([]);
    const readiness = createReadiness({
      database: database(async () => true),
      mode: 'production',
      redisUrl: undefined,
      log,
      pendingMigrations,
    });
    expect(await readiness.check()).toMatchObject({
      status: 'unavailable',
      checks: { database: 'ok', migrations: '2 pending: 0007_payouts, 0008_outbox' },
    });
    expect(await readiness.check()).toMatchObject({ status: 'ok', checks: { migrations: 'ok' } });
    expect(await readiness.check()).toMatchObject({ status: 'ok' });
    expect(pendingMigrations).toHaveBeenCalledTimes(2);
  });
});

describe('graceful shutdown', () => {
  it('turns unready, then lets requests in flight finish, closes sockets with 1001 and stops', async () => {
    let release: () => void = () => undefined;
    let entered: () => void = () => undefined;
    const inFlight = new Promise<void>((resolve) => (entered = resolve));
    const t = await createTestApp({}, (app) => {
      app.get('/api/test/slow', async () => {
        entered();
        await new Promise<void>((resolve) => (release = resolve));
        return { finished: true };
      });
    });
    try {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const socket = new WebSocket(`ws://127.0.0.1:${port}/api/realtime`);
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const socketClosed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));

      const slow = fetch(`http://127.0.0.1:${port}/api/test/slow`);
      await inFlight;
      let stopped = false;
      const stopping = shutDownGracefully(t.app, 300).then(() => (stopped = true));

      // First, readiness only: the load balancer is told, everything else still works.
      expect((await ready(t)).body.checks.process).toBe('draining');
      expect(socket.readyState).toBe(WebSocket.OPEN);

      // Then the sockets are told to reconnect elsewhere, and the close waits for the slow request.
      expect(await socketClosed).toBe(1001);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stopped).toBe(false);
      release();
      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ finished: true });
      await stopping;
      expect(stopped).toBe(true);
    } finally {
      release();
      await t.close();
    }
  });
});

/** One GET over a real keep-alive connection of `agent`: its status, Connection header and body. */
function getOver(agent: http.Agent, base: string, path: string) {
  return new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    const request = http.get(`${base}${path}`, { agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body }),
      );
    });
    request.on('error', reject);
  });
}

describe('while the process drains', () => {
  it('every HTTP/1 answer says Connection: close and ends its connection, also one to a request that arrived before', async () => {
    let entered!: () => void;
    const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const t = await createTestApp({}, (app) => {
      app.get('/api/test/held', async () => {
        entered();
        await held;
        return { finished: true };
      });
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const before = await getOver(agent, base, '/api/price');
      expect(before.status).toBe(200);
      expect(before.connection).toBe('keep-alive');

      const inFlight = getOver(new http.Agent({ keepAlive: true }), base, '/api/test/held');
      await handlerEntered;
      t.app.drain();
      release();
      const answered = await inFlight;
      expect(JSON.parse(answered.body)).toEqual({ finished: true });
      // Keep-alive clients reconnect, through the load balancer, to a process that is not stopping.
      expect(answered.connection).toBe('close');
      for (const path of ['/api/price', '/login', '/api/no-such-route']) {
        const answer = await getOver(agent, base, path);
        expect(answer.connection, path).toBe('close');
      }
      // The server ended each of those connections: the agent keeps none of them for another request.
      await new Promise((resolve) => setImmediate(resolve));
      expect(Object.values(agent.freeSockets).flat()).toHaveLength(0);
    } finally {
      release();
      agent.destroy();
      await t.close();
    }
  });
});
