import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { orderValueDays, orders, type OrderRow } from '../db/schema';
import { migrationsFolder } from '../config/server-paths';
import { findTwinAndWindowUse } from '../orders/order-twins.repository';
import { useTestDatabase } from '../test/test-app';
import { newBuyOrderRow } from '../test/new-buy-order-row';
import { NOT_COUNTED_STATUSES, sumOrderValuesSince, type WindowUse } from './limits.repository';

// The limit windows add up whole days from order_value_days, which a trigger keeps, and the orders of
// their first, partial day. Whatever happens to the orders, that must equal adding up the orders one by
// one, as the limits did before: a window short by one order would let a customer past their limit.
const database = useTestDatabase(['value.days.alice@example.com', 'value.days.bob@example.com']);
let alice: string;
let bob: string;

beforeAll(() => {
  [alice, bob] = database.userIds as [string, string];
});

const MIDNIGHT = Date.parse('2026-11-20T00:00:00.000Z');
const DAY_MS = 24 * 3_600_000;

/** A repeatable sequence of numbers in [0, 1), so a failure shows the same orders again. */
function sequence(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}
const next = sequence(17);

/** Creation times around the edges that matter: exact UTC midnights and a millisecond either side. */
function creationTime(): Date {
  const day = MIDNIGHT - Math.floor(next() * 35) * DAY_MS;
  const edge = [0, 1, -1, DAY_MS / 2, Math.floor(next() * DAY_MS)][Math.floor(next() * 5)]!;
  return new Date(day + edge);
}

async function insertOrders(userId: string, count: number): Promise<OrderRow[]> {
  const rows = Array.from({ length: count }, () => ({
    ...newBuyOrderRow(userId, BigInt(1 + Math.floor(next() * 500_000))),
    createdAt: creationTime(),
  }));
  return database.db.insert(orders).values(rows).returning();
}

/** The windows' use added up order by order, here rather than in SQL: what the limits must answer. */
async function countedOneByOne(userId: string, since: Since, exceptOrderId?: string): Promise<WindowUse> {
  const rows = await database.db.select().from(orders).where(eq(orders.userId, userId));
  const counted = rows.filter(
    (row) => !(NOT_COUNTED_STATUSES as readonly string[]).includes(row.status) && row.id !== exceptOrderId,
  );
  const after = (start: Date) =>
    counted
      .filter((row) => row.createdAt.getTime() > start.getTime())
      .reduce((sum, row) => sum + row.valueCents, 0n);
  return { day: after(since.day), week: after(since.week), month: after(since.month) };
}

type Since = { day: Date; week: Date; month: Date };

/** Window starts on a midnight, a millisecond either side of one, on an order's own creation time… */
async function startsToCheck(): Promise<Since[]> {
  const [someOrder] = await database.db.select().from(orders).limit(1);
  const at = (ms: number): Since => ({
    day: new Date(ms - DAY_MS),
    week: new Date(ms - 7 * DAY_MS),
    month: new Date(ms - 30 * DAY_MS),
  });
  return [
    at(MIDNIGHT),
    at(MIDNIGHT + 1),
    at(MIDNIGHT - 1),
    at(MIDNIGHT + DAY_MS / 3),
    at(MIDNIGHT + 2 * DAY_MS),
    at(someOrder!.createdAt.getTime() + DAY_MS),
    { day: new Date(MIDNIGHT - 40 * DAY_MS), week: new Date(MIDNIGHT - 3 * DAY_MS), month: new Date(0) },
  ];
}

async function expectWindowsToMatchTheOrders(): Promise<void> {
  const [someOrderOfAlice] = await database.db.select().from(orders).where(eq(orders.userId, alice));
  for (const since of await startsToCheck()) {
    for (const userId of [alice, bob]) {
      const expected = await countedOneByOne(userId, since);
      expect(await sumOrderValuesSince(database.db, userId, since)).toEqual(expected);
      const asSaved = await database.db.transaction((tx) =>
        findTwinAndWindowUse(
          tx,
          {
            userId,
            type: 'sell',
            amountSats: 1n,
            valueCents: 1n,
            walletAddress: null,
            paymentMethod: 'zelle',
          },
          since,
        ),
      );
      expect(asSaved.used).toEqual(expected);
    }
    const except = someOrderOfAlice!.id;
    expect(await sumOrderValuesSince(database.db, alice, since, except)).toEqual(
      await countedOneByOne(alice, since, except),
    );
  }
}

/** Changes the given orders straight in the table, as any writer could: the trigger must follow. */
async function changeOrders(values: PgUpdateSetSource<typeof orders>, ids: string[]): Promise<void> {
  await database.db.update(orders).set(values).where(inArray(orders.id, ids));
}

describe('the limit windows from order_value_days', () => {
  it('add up to the counted orders, one by one, after inserts, expiries, cancellations, re-quotes, moves and deletes', async () => {
    const aliceOrders = await insertOrders(alice, 120);
    const bobOrders = await insertOrders(bob, 30);
    await expectWindowsToMatchTheOrders();

    const ids = (rows: OrderRow[], from: number, to: number) => rows.slice(from, to).map((row) => row.id);
    // Out of the windows, and one of them back in (an operator's correction).
    await changeOrders({ status: 'expired' }, ids(aliceOrders, 0, 15));
    await changeOrders({ status: 'cancelled' }, ids(aliceOrders, 15, 25));
    await changeOrders({ status: 'pending' }, [aliceOrders[3]!.id]);
    // A status change that keeps the order counted moves nothing.
    await changeOrders({ status: 'processing' }, ids(aliceOrders, 25, 40));
    // A re-quote's new value, a cancelled order's value changed too, a creation time moved across days.
    await changeOrders({ valueCents: sql`${orders.valueCents} + 12345` }, [
      ...ids(aliceOrders, 40, 50),
      aliceOrders[20]!.id,
    ]);
    await changeOrders(
      { createdAt: sql`${orders.createdAt} - interval '1 day 3 hours'` },
      ids(aliceOrders, 50, 60),
    );
    // An order changing hands (never done by the product, still kept right), then deletes.
    await changeOrders({ userId: bob }, ids(aliceOrders, 60, 65));
    await database.db
      .delete(orders)
      .where(inArray(orders.id, [...ids(aliceOrders, 65, 70), ...ids(bobOrders, 0, 5)]));
    await database.db.delete(orders).where(eq(orders.id, aliceOrders[0]!.id));

    await expectWindowsToMatchTheOrders();
  });

  it("the migration's own sum of the orders already there gives the same days the trigger keeps", async () => {
    const kept = await database.db
      .select()
      .from(orderValueDays)
      .orderBy(orderValueDays.userId, orderValueDays.day);
    expect(kept.length).toBeGreaterThan(10);
    const migration = readFileSync(path.join(migrationsFolder, '0022_order_value_days.sql'), 'utf8');
    const backfill = migration
      .split('--> statement-breakpoint')
      .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
      .find((statement) => statement.startsWith('INSERT INTO "order_value_days"'));
    expect(backfill).toBeDefined();

    await database.db.delete(orderValueDays);
    await database.db.execute(sql.raw(backfill!));
    const summed = await database.db
      .select()
      .from(orderValueDays)
      .orderBy(orderValueDays.userId, orderValueDays.day);
    // The trigger leaves a day at zero where its orders went; the migration's sum makes no such day.
    expect(summed).toEqual(kept.filter((day) => day.valueCents !== 0n));
  });
});
