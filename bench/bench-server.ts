/**
 * One server under test of `npm run bench`, in a process of its own so the load generator never shares
 * its event loop. `node --import tsx bench/bench-server.ts product|bare` with BENCH_DB (`embedded` or a
 * PostgreSQL URL) in the environment; answers `{ ready: base URL }` to its parent over IPC once
 * listening on 127.0.0.1, and stops when the parent disconnects or sends `stop`.
 *
 * - `product`: OffZero itself, built by buildApp with the demo configuration (request logging off, the
 *   mutation limits raised so a benchmark's thousands of saves are not refused as too many).
 * - `bare`: a bare Fastify with the counterparts: `GET /hello` (hello-world), `GET /orders` (the order
 *   list's query through the same driver, no sign-in) and `POST /orders` (the same order and event rows
 *   as the product's save, inserted the plain way: two inserts through the query builder in one
 *   transaction; the product writes them in one statement it builds once, which is its own gain).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app';
import { loadConfig, loadDatabaseConfig } from '../apps/server/src/config/config';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/database';
import { orderEvents, orders, users } from '../apps/server/src/db/schema';
import { listCustomerOrdersWithPayoutEntries } from '../apps/server/src/orders/order.repository';
import { newBuyOrderRow } from '../apps/server/src/test/new-buy-order-row';

const mode = process.argv[2];
const databaseSetting = process.env.BENCH_DB ?? 'embedded';

function openBenchDatabase(): Promise<DatabaseHandle> {
  if (databaseSetting === 'embedded') return openDatabase({ dataDir: null });
  // Both servers keep the pool DATABASE_POOL_MAX sets, as the product would; its default otherwise.
  const { poolMax } = loadDatabaseConfig(process.env);
  return openDatabase({ databaseUrl: databaseSetting, dataDir: null, poolMax });
}

async function productServer(): Promise<FastifyInstance> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'offzero-bench-'));
  const config = loadConfig({
    APP_MODE: 'demo',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    WEB_DIST_DIR: path.join(dataDir, 'none'),
    LOG_LEVEL: 'error',
    OTP_SENDS_PER_IP: '1000',
    MUTATIONS_PER_IP_PER_MINUTE: '10000000',
    MUTATIONS_PER_USER_PER_MINUTE: '10000000',
    CHAIN_POLL_SECONDS: '600',
    ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
  });
  return buildApp({ config, database: await openBenchDatabase() });
}

const toJson = (_key: string, value: unknown) => (typeof value === 'bigint' ? Number(value) : value);

async function bareServer(): Promise<FastifyInstance> {
  const database = await openBenchDatabase();
  const { db } = database;
  const app = Fastify();
  app.addHook('onClose', async () => database.close());
  const [user] = await db
    .insert(users)
    .values({ email: `bare-${randomBytes(6).toString('hex')}@example.com`, emailVerified: true })
    .returning({ id: users.id });
  const userId = user!.id;
  const newOrder = (valueCents: bigint) => newBuyOrderRow(userId, valueCents);
  // The same two rows the product's save writes, inserted the plain way: the order, then its event.
  const save = (valueCents: bigint) =>
    db.transaction(async (tx) => {
      const [order] = await tx.insert(orders).values(newOrder(valueCents)).returning();
      await tx.insert(orderEvents).values({
        orderId: order!.id,
        fromStatus: null,
        toStatus: order!.status,
        actor: `user:${userId}`,
        reason: 'order created',
      });
      return order!;
    });
  for (let i = 0; i < 20; i += 1) await save(10_000n);

  app.get('/hello', async () => ({ hello: 'world' }));
  app.get('/orders', async (_request, reply) => {
    const rows = await listCustomerOrdersWithPayoutEntries(db, userId, 5);
    return reply.type('application/json').send(JSON.stringify({ result: { orders: rows } }, toJson));
  });
  app.post('/orders', async (request, reply) => {
    const { value } = request.body as { value: number };
    const order = await save(BigInt(Math.round(value * 100)));
    return reply.type('application/json').send(JSON.stringify({ order }, toJson));
  });
  return app;
}

async function main(): Promise<void> {
  const app = mode === 'product' ? await productServer() : mode === 'bare' ? await bareServer() : null;
  if (!app) throw new Error('usage: bench-server.ts product|bare');
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const stop = () => {
    void app.close().finally(() => process.exit(0));
  };
  process.on('disconnect', stop);
  process.on('message', (message) => {
    if (message === 'stop') stop();
  });
  process.send?.({ ready: base });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
