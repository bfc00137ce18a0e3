import { count, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deposits,
  kycRecords,
  monitoringCases,
  orderEvents,
  orders,
  orderValueDays,
  payouts,
  planRuns,
  users,
} from '../db/schema';
import { logIn } from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { ORDER_TABLES, seedEmailDomain, seedScale } from './seed-scale';

const SHAPE = { seed: 7, customers: 200, orders: 2_000 };
let t: TestApp;
let indexesBefore: string[];

/** Every index of the orders' tables, as the statement that builds it. */
async function indexesOfOrderTables(): Promise<string[]> {
  const result: unknown = await t.database.db.execute(sql`
    select indexdef as definition from pg_indexes
     where schemaname = current_schema()
       and tablename in (${sql.join(
         ORDER_TABLES.map((table) => sql`${table}`),
         sql`, `,
       )})
     order by indexname`);
  return (result as { rows: { definition: string }[] }).rows.map((row) => row.definition);
}

beforeAll(async () => {
  t = await createTestApp();
  indexesBefore = await indexesOfOrderTables();
  await seedScale(t.database.db, SHAPE);
}, 120_000);
afterAll(() => t?.close());

const countOf = async (rows: Promise<{ n: number }[]>) => (await rows)[0]?.n ?? 0;

describe('the scale seed', () => {
  it('writes the customers and orders asked for, with what hangs off them', async () => {
    const { db } = t.database;
    const seeded = like(users.email, `%@${seedEmailDomain(SHAPE.seed)}`);
    expect(await countOf(db.select({ n: count() }).from(users).where(seeded))).toBe(200);
    expect(await countOf(db.select({ n: count() }).from(kycRecords))).toBe(200);
    expect(await countOf(db.select({ n: count() }).from(orders))).toBe(2_000);
    // Every order has its creation event; finished and paid ones have more.
    const events = await countOf(db.select({ n: count() }).from(orderEvents));
    expect(events).toBeGreaterThan(2_000 * 1.5);
    expect(await countOf(db.select({ n: count() }).from(payouts))).toBeGreaterThan(1_000);
    expect(await countOf(db.select({ n: count() }).from(deposits))).toBeGreaterThan(100);
    expect(await countOf(db.select({ n: count() }).from(monitoringCases))).toBeGreaterThan(0);
    expect(await countOf(db.select({ n: count() }).from(planRuns))).toBeGreaterThan(0);
  });

  it("leaves every index of the orders' tables as the migrations made it, though it loads without them", async () => {
    expect(indexesBefore.length).toBeGreaterThan(20);
    expect(await indexesOfOrderTables()).toEqual(indexesBefore);
  });

  it('covers every type, status and payment method', async () => {
    const kinds = await t.database.db
      .selectDistinct({ type: orders.type, status: orders.status, method: orders.paymentMethod })
      .from(orders);
    const seen = (key: 'type' | 'status' | 'method') => new Set(kinds.map((kind) => kind[key]));
    expect(seen('type')).toEqual(new Set(['buy', 'sell']));
    expect(seen('status')).toEqual(new Set(['pending', 'processing', 'completed', 'expired', 'cancelled']));
    expect(seen('method')).toEqual(new Set(['paypal', 'zelle', 'ach', 'wire', 'instant']));
    const lightning = await t.database.db
      .select({ n: count() })
      .from(orders)
      .where(sql`${orders.lightningPaymentHash} is not null`);
    expect(lightning[0]?.n).toBeGreaterThan(0);
  });

  it('keeps the day sums the trading limits read equal to the counted orders', async () => {
    const [sums] = await t.database.db
      .select({ days: sql<string>`(select coalesce(sum(value_cents), 0) from ${orderValueDays})` })
      .from(sql`(select 1) as one`);
    const [counted] = await t.database.db
      .select({ total: sql<string>`coalesce(sum(${orders.valueCents}), 0)` })
      .from(orders)
      .where(sql`${orders.status} not in ('expired', 'cancelled')`);
    expect(BigInt(sums!.days)).toBe(BigInt(counted!.total));
  });

  it('writes rows the product reads: a seeded customer signs in and lists their orders', async () => {
    const { db } = t.database;
    // The first customers trade the most (the seed draws customers with a square law).
    const [first] = await db
      .select()
      .from(users)
      .where(eq(users.email, `c1.${(await lastNameOf(1)).toLowerCase()}@${seedEmailDomain(SHAPE.seed)}`));
    expect(first).toBeDefined();
    const own = await countOf(db.select({ n: count() }).from(orders).where(eq(orders.userId, first!.id)));
    expect(own).toBeGreaterThan(5);
    const customer = await logIn(t, first!.email);
    const list = await t.request({
      method: 'GET',
      url: `/api/order/list?userId=${first!.id}&limit=1000`,
      headers: customer.auth,
    });
    expect(list.statusCode).toBe(200);
    const listed = list.json<{ result: { orders: { _id: string }[] } }>().result.orders;
    expect(listed).toHaveLength(own);
    const timeline = await t.request({
      method: 'GET',
      url: `/api/order/${listed[0]!._id}/timeline`,
      headers: customer.auth,
    });
    expect(timeline.statusCode).toBe(200);
  });

  it('writes the same rows from the same seed', async () => {
    const again = await createTestApp();
    try {
      await seedScale(again.database.db, { ...SHAPE, customers: 20, orders: 100 });
      const pick = (db: typeof t.database.db) =>
        db
          .select({ id: orders.id, status: orders.status, value: orders.valueCents, user: orders.userId })
          .from(orders)
          .where(sql`${orders.id} in (select md5('7:o:' || j::text)::uuid from generate_series(1, 100) j)`)
          .orderBy(orders.id);
      const first = await pick(again.database.db);
      expect(first).toHaveLength(100);
      const other = await createTestApp();
      try {
        await seedScale(other.database.db, { ...SHAPE, customers: 20, orders: 100 });
        expect(await pick(other.database.db)).toEqual(first);
      } finally {
        await other.close();
      }
    } finally {
      await again.close();
    }
  }, 120_000);
});

async function lastNameOf(customer: number): Promise<string> {
  const [row] = await t.database.db
    .select({ lastName: users.lastName })
    .from(users)
    .where(like(users.email, `c${customer}.%@${seedEmailDomain(SHAPE.seed)}`));
  return row!.lastName;
}
