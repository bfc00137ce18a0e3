import { and, eq, gt, ne, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { orders, users } from '../db/schema';
import type { LimitTier } from '@offzero/shared/api/limits';
import type { Cents } from '@offzero/shared/money/money';
import { forgetCachedSessions } from '../auth/sessions';

/** What the customer's orders used of each window: value in cents, buys and sells together. */
export interface WindowUse {
  day: Cents;
  week: Cents;
  month: Cents;
}

/**
 * The USD value of the customer's orders that count toward their limits (every status but expired
 * and cancelled) created after each window's start. `exceptOrderId` leaves out an order being
 * re-quoted, whose new value replaces its old one.
 */
export async function sumOrderValuesSince(
  db: Database | Transaction,
  userId: string,
  since: { day: Date; week: Date; month: Date },
  exceptOrderId?: string,
): Promise<WindowUse> {
  const [row] = await db
    .select(windowSums(since))
    .from(orders)
    .where(windowOrders(userId, since, exceptOrderId));
  return windowUseOf(row);
}

/** A window's start, or where a statement built once takes it (db/built-once.ts). */
type WindowStart = Date | SQL;

/** The columns of `sumOrderValuesSince`: each window's value, as PostgreSQL's numeric text. */
export function windowSums(since: { day: WindowStart; week: WindowStart; month: WindowStart }) {
  const inWindow = (start: WindowStart) =>
    sql<string>`coalesce(sum(${orders.valueCents}) filter (where ${orders.createdAt} > ${start instanceof Date ? start.toISOString() : start}), 0)`;
  return { day: inWindow(since.day), week: inWindow(since.week), month: inWindow(since.month) };
}

/** The orders `sumOrderValuesSince` counts. */
export function windowOrders(userId: string | SQL, since: { month: WindowStart }, exceptOrderId?: string) {
  return and(
    eq(orders.userId, userId),
    notInArray(orders.status, ['expired', 'cancelled']),
    gt(orders.createdAt, since.month),
    exceptOrderId ? ne(orders.id, exceptOrderId) : undefined,
  );
}

/** The sums as exact integers: PostgreSQL answers a bigint sum as numeric text, never read through a float. */
export function windowUseOf(row: { day: string; week: string; month: string } | undefined): WindowUse {
  return {
    day: BigInt(row?.day ?? 0),
    week: BigInt(row?.week ?? 0),
    month: BigInt(row?.month ?? 0),
  };
}

export async function findLimitTier(db: Database | Transaction, userId: string): Promise<LimitTier> {
  const [row] = await db.select({ tier: users.limitTier }).from(users).where(eq(users.id, userId));
  return row?.tier === 2 ? 2 : 1;
}

export async function setLimitTier(tx: Transaction, userId: string, tier: LimitTier): Promise<void> {
  await tx.update(users).set({ limitTier: tier, updatedAt: new Date() }).where(eq(users.id, userId));
  forgetCachedSessions(userId);
}
