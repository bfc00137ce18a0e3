import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { orders, otpCodes, outboxEvents, priceSnapshots, sessions } from '../db/schema';
import { placeBuyOrder } from '../test/buy-helpers';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { createTestApp, createTestAppOnSameDatabase, type TestApp } from '../test/test-app';
import { applyRetention } from './retention.repository';
import { PG_BOSS_SCHEMA } from './pg-boss-job-queue';

const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';
const DAY_MS = 86_400_000;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('jobs on the app’s own engine', () => {
  let t: TestApp;
  let admin: RegisteredCustomer;
  let customer: RegisteredCustomer;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await logIn(t, 'admin@offzero.local');
    customer = await registerVerifiedCustomer(t, 'jobs.customer@example.com');
  });
  afterAll(async () => t.close());

  it('uses pg-boss on PostgreSQL and the in-process queue on the embedded database', () => {
    expect(t.app.jobQueue.kind).toBe(IS_POSTGRES ? 'pg-boss' : 'in-process');
  });

  it('retries a throwing job, then parks it where the back office sees it with its error', async () => {
    let tries = 0;
    t.app.jobQueue.register(
      'test-explodes',
      async () => {
        tries += 1;
        throw new Error(`exploded on try ${tries}`);
      },
      { retryLimit: 2, retryDelaySeconds: 1, retryBackoff: false },
    );
    await t.app.jobQueue.send('test-explodes', { some: 'data' });

    const failed = await until(
      async () => {
        const response = await t.request({
          method: 'GET',
          url: '/api/admin/jobs/failed',
          headers: admin.auth,
        });
        expect(response.statusCode).toBe(200);
        return response.json<{
          jobs: { id: string; name: string; error: string; failedAt: string; attempts: number }[];
        }>().jobs;
      },
      (jobs) => jobs.some((job) => job.name === 'test-explodes'),
    );
    const parked = failed.find((job) => job.name === 'test-explodes');
    expect(parked).toMatchObject({ name: 'test-explodes', error: 'exploded on try 3', attempts: 3 });
    expect(Number.isNaN(Date.parse(parked?.failedAt ?? ''))).toBe(false);
    expect(tries).toBe(3);
  });

  it('works a backlog without waiting a polling interval per job; one failing job fails alone', async () => {
    const ran: number[] = [];
    t.app.jobQueue.register(
      'test-backlog',
      async (data) => {
        const n = (data as { n: number }).n;
        if (n === 7) throw new Error('job 7 fails');
        ran.push(n);
      },
      { retryLimit: 0 },
    );
    const started = Date.now();
    for (let n = 0; n < 30; n++) await t.app.jobQueue.send('test-backlog', { n });
    await until(
      async () => ran.length,
      (count) => count === 29,
    );
    expect([...ran].sort((a, b) => a - b)).toEqual([...Array(30).keys()].filter((n) => n !== 7));
    // One job per one-second poll would take half a minute.
    expect(Date.now() - started).toBeLessThan(15_000);
    const parked = await until(
      () => t.app.jobQueue.failed(),
      (jobs) => jobs.some((job) => job.name === 'test-backlog'),
    );
    expect(parked.filter((job) => job.name === 'test-backlog')).toMatchObject([
      { error: 'job 7 fails', attempts: 1 },
    ]);
  });

  it('pruning old completed runs keeps the parked jobs', async () => {
    const pruned = await t.app.jobQueue.prune(0);
    if (IS_POSTGRES) expect(pruned).toBeGreaterThan(0);
    else expect(pruned).toBe(0);
    const parked = await t.app.jobQueue.failed();
    expect(parked.map((job) => job.name)).toContain('test-explodes');
  });

  it('lists parked jobs to staff only', async () => {
    const anonymous = await t.request({ method: 'GET', url: '/api/admin/jobs/failed' });
    expect(anonymous.statusCode).toBe(401);
    const asCustomer = await t.request({
      method: 'GET',
      url: '/api/admin/jobs/failed',
      headers: customer.auth,
    });
    expect(asCustomer.statusCode).toBe(403);
  });

  it('retention thins old prices, deletes ended codes and sessions after 30 days, keeps the rest', async () => {
    const { db } = t.database;
    const now = new Date();
    const ago = (days: number, minutes = 0) => new Date(now.getTime() - days * DAY_MS - minutes * 60_000);
    const price = (fetchedAt: Date) => ({
      sellPriceCents: 5_000_000n,
      buyPriceCents: 4_900_000n,
      networkFeeSats: 1_000n,
      source: 'retention-test',
      fetchedAt,
    });
    // One old hour with four snapshots, another with one, and two recent ones in one hour.
    const oldHour = new Date(Math.floor(ago(100).getTime() / 3_600_000) * 3_600_000);
    const inOldHour = [0, 10, 20, 30].map((m) => new Date(oldHour.getTime() + m * 60_000));
    const otherOldHour = new Date(oldHour.getTime() - 5 * 3_600_000);
    const recentHour = new Date(Math.floor(ago(10).getTime() / 3_600_000) * 3_600_000);
    const recent = [0, 10].map((m) => new Date(recentHour.getTime() + m * 60_000));
    const inserted = await db
      .insert(priceSnapshots)
      .values([...inOldHour, otherOldHour, ...recent].map(price))
      .returning({ id: priceSnapshots.id });
    // An order priced from an old snapshot that is not its hour's first: the snapshot stays.
    const orderId = await placeBuyOrder(t, customer, 50);
    await db.update(orders).set({ priceSnapshotId: inserted[2]?.id }).where(eq(orders.id, orderId));

    const otp = (fields: { expiresAt: Date; consumedAt?: Date | null; createdAt: Date }) => ({
      purpose: 'login' as const,
      destination: 'retention@example.com',
      codeHash: 'x',
      ...fields,
    });
    const [usedLongAgo, expiredLongAgo, usedRecently, live] = await db
      .insert(otpCodes)
      .values([
        otp({ createdAt: ago(40), expiresAt: ago(40, -10), consumedAt: ago(40) }),
        otp({ createdAt: ago(35), expiresAt: ago(35, -10) }),
        otp({ createdAt: ago(5), expiresAt: ago(5, -10), consumedAt: ago(5) }),
        otp({ createdAt: now, expiresAt: new Date(now.getTime() + 600_000) }),
      ])
      .returning({ id: otpCodes.id });

    const [revokedLongAgo, expiredSessionLongAgo, revokedRecently, active] = await db
      .insert(sessions)
      .values([
        { userId: customer.userId, createdAt: ago(60), expiresAt: ago(30), revokedAt: ago(45) },
        { userId: customer.userId, createdAt: ago(70), expiresAt: ago(31) },
        {
          userId: customer.userId,
          createdAt: ago(20),
          expiresAt: new Date(now.getTime() + DAY_MS),
          revokedAt: ago(3),
        },
        { userId: customer.userId, createdAt: ago(1), expiresAt: new Date(now.getTime() + DAY_MS) },
      ])
      .returning({ id: sessions.id });

    const delivery = (eventKey: string, fields: Partial<typeof outboxEvents.$inferInsert>) => ({
      eventKey,
      channel: 'email' as const,
      recipient: 'retention@example.com',
      userId: customer.userId,
      payload: { subject: 's', text: 't' },
      ...fields,
    });
    await db.insert(outboxEvents).values([
      delivery('retention:delivered-long-ago', {
        status: 'delivered',
        deliveredAt: ago(31),
        createdAt: ago(31),
      }),
      delivery('retention:delivered-recently', {
        status: 'delivered',
        deliveredAt: ago(2),
        createdAt: ago(2),
      }),
      delivery('retention:failed-long-ago', { status: 'failed', failedAt: ago(40), createdAt: ago(41) }),
      delivery('retention:pending', { createdAt: ago(40) }),
    ]);

    // Registration tokens and admin second-step tokens: ended long ago, ended recently, live.
    const token = (
      table: 'registration_tokens' | 'mfa_challenges',
      createdDaysAgo: number,
      consumed: boolean,
    ) =>
      db.execute(
        table === 'registration_tokens'
          ? sql`insert into registration_tokens (user_id, created_at, expires_at, consumed_at)
                values (${customer.userId}, ${ago(createdDaysAgo).toISOString()}::timestamptz,
                        ${ago(createdDaysAgo, -15).toISOString()}::timestamptz,
                        ${consumed ? ago(createdDaysAgo).toISOString() : null}::timestamptz)`
          : sql`insert into mfa_challenges (user_id, token_hash, created_at, expires_at, consumed_at)
                values (${customer.userId}, ${`hash-${createdDaysAgo}-${consumed}`},
                        ${ago(createdDaysAgo).toISOString()}::timestamptz,
                        ${ago(createdDaysAgo, -5).toISOString()}::timestamptz,
                        ${consumed ? ago(createdDaysAgo).toISOString() : null}::timestamptz)`,
      );
    for (const table of ['registration_tokens', 'mfa_challenges'] as const) {
      await token(table, 40, true);
      await token(table, 31, false);
      await token(table, 2, true);
      await token(table, 0, false);
    }
    const tokenCount = async (table: 'registration_tokens' | 'mfa_challenges') => {
      const counted: unknown = await db.execute(
        table === 'registration_tokens'
          ? sql`select count(*)::int as n from registration_tokens where user_id = ${customer.userId}`
          : sql`select count(*)::int as n from mfa_challenges where user_id = ${customer.userId}`,
      );
      return (counted as { rows: { n: number }[] }).rows[0]?.n;
    };
    const tokensBefore = {
      registration: await tokenCount('registration_tokens'),
      mfa: await tokenCount('mfa_challenges'),
    };

    const countKept = async () => {
      const counted: unknown = await db.execute(sql`select
        (select count(*) from orders)::int as orders,
        (select count(*) from order_events)::int as events,
        (select count(*) from deposits)::int as deposits,
        (select count(*) from admin_actions)::int as audit,
        (select count(*) from kyc_records)::int as kyc`);
      return (counted as { rows: unknown[] }).rows;
    };
    const countBefore = await countKept();

    const result = await applyRetention(db, now);
    expect(result).toMatchObject({
      priceSnapshots: 2,
      otpCodes: 2,
      sessions: 2,
      outboxEvents: 1,
      signInTokens: 4,
    });
    expect(await tokenCount('registration_tokens')).toBe(tokensBefore.registration! - 2);
    expect(await tokenCount('mfa_challenges')).toBe(tokensBefore.mfa! - 2);
    const deliveries = await db
      .select({ eventKey: outboxEvents.eventKey })
      .from(outboxEvents)
      .where(sql`${outboxEvents.eventKey} like 'retention:%'`);
    expect(deliveries.map((d) => d.eventKey).sort()).toEqual([
      'retention:delivered-recently',
      'retention:failed-long-ago',
      'retention:pending',
    ]);

    const snapshots = await db
      .select({ fetchedAt: priceSnapshots.fetchedAt })
      .from(priceSnapshots)
      .where(sql`${priceSnapshots.source} = 'retention-test'`)
      .orderBy(priceSnapshots.fetchedAt);
    expect(snapshots.map((s) => s.fetchedAt.getTime())).toEqual(
      [otherOldHour, inOldHour[0], inOldHour[2], ...recent].map((d) => d?.getTime()),
    );

    const otpIds = (await db.select({ id: otpCodes.id }).from(otpCodes)).map((r) => r.id);
    expect(otpIds).not.toContain(usedLongAgo?.id);
    expect(otpIds).not.toContain(expiredLongAgo?.id);
    expect(otpIds).toContain(usedRecently?.id);
    expect(otpIds).toContain(live?.id);

    const sessionIds = (await db.select({ id: sessions.id }).from(sessions)).map((r) => r.id);
    expect(sessionIds).not.toContain(revokedLongAgo?.id);
    expect(sessionIds).not.toContain(expiredSessionLongAgo?.id);
    expect(sessionIds).toContain(revokedRecently?.id);
    expect(sessionIds).toContain(active?.id);

    const countAfter = await countKept();
    expect(countAfter).toEqual(countBefore);
    expect(countBefore).toEqual([expect.objectContaining({ orders: 1, events: 1 })]);

    // The customer's own session still works.
    const me = await t.request({ method: 'GET', url: '/api/user/me', headers: customer.auth });
    expect(me.statusCode).not.toBe(401);
  });
});

describe('prices in a web process', () => {
  it('fetches none itself and follows the newest stored price', async () => {
    const t = await createTestApp({ PROCESS_ROLE: 'web' });
    try {
      // A fresh database and no worker yet: nothing fetched, nothing to quote from.
      expect((await t.app.inject({ method: 'GET', url: '/api/price' })).statusCode).toBe(503);
      // What a worker's price-refresh job stores, another process's web process learns.
      await t.database.db.insert(priceSnapshots).values({
        sellPriceCents: 7_654_321n,
        buyPriceCents: 7_600_000n,
        networkFeeSats: 1_234n,
        source: 'another-process',
        fetchedAt: new Date(),
      });
      const price = await until(
        async () => (await t.app.inject({ method: 'GET', url: '/api/price' })).json<{ source?: string }>(),
        (answer) => answer.source === 'another-process',
        10_000,
      );
      expect(price).toMatchObject({ source: 'another-process', sellPrice: 76_543.21, stale: false });
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!IS_POSTGRES)('periodic jobs across three processes on one PostgreSQL database', () => {
  const apps: TestApp[] = [];

  afterAll(async () => {
    for (const app of apps.slice(1).reverse()) await app.close();
    await apps[0]?.close();
  });

  it('run once per period, not once per process', async () => {
    apps.push(await createTestApp({ PROCESS_ROLE: 'worker' }));
    const first = apps[0] as TestApp;
    apps.push(await createTestAppOnSameDatabase(first, { PROCESS_ROLE: 'worker' }));
    apps.push(await createTestAppOnSameDatabase(first, { PROCESS_ROLE: 'all' }));

    const runs: { process: number; at: number }[] = [];
    const PERIOD_MS = 2_000;
    apps.forEach((app, process) => {
      app.app.jobQueue.register('test-tick', async () => {
        runs.push({ process, at: Date.now() });
      });
      app.app.jobQueue.schedule('test-tick', PERIOD_MS);
    });
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5 * PERIOD_MS + 500));
    const elapsedPeriods = (Date.now() - started) / PERIOD_MS;

    const client = new pg.Client({ connectionString: first.databaseUrl });
    await client.connect();
    try {
      const { rows: slots } = await client.query<{ slot: Date; jobs: number }>(
        `select singleton_on as slot, count(*)::int as jobs from ${PG_BOSS_SCHEMA}.job
         where name = 'test-tick' group by singleton_on order by singleton_on`,
      );
      // One job per period, though three processes asked for it every period.
      expect(slots.every((slot) => slot.jobs === 1)).toBe(true);
      expect(slots.length).toBeGreaterThanOrEqual(Math.floor(elapsedPeriods) - 1);
      expect(slots.length).toBeLessThanOrEqual(Math.ceil(elapsedPeriods) + 1);
      // Every job ran once (the last one may still be waiting for a worker's next poll).
      expect(runs.length).toBeGreaterThanOrEqual(slots.length - 1);
      expect(runs.length).toBeLessThanOrEqual(slots.length);

      // The real periodic jobs too: the order expiry pass never has two jobs in one period.
      const { rows: doubled } = await client.query(
        `select name, singleton_on from ${PG_BOSS_SCHEMA}.job
         where name in ('expire-overdue-orders', 'deposit-watcher', 'kyc-auto-approve')
         group by name, singleton_on having count(*) > 1`,
      );
      expect(doubled).toEqual([]);
      const { rows: expiryRuns } = await client.query<{ count: number }>(
        `select count(*)::int as count from ${PG_BOSS_SCHEMA}.job where name = 'expire-overdue-orders'`,
      );
      expect(expiryRuns[0]?.count).toBeGreaterThanOrEqual(1);
    } finally {
      await client.end();
    }
  });
});
