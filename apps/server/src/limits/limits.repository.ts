import { and, eq, gt, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { orderValueDays, orders, users } from '../db/schema';
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
    .select(windowSums(userId, since, exceptOrderId))
    .from(users)
    .where(eq(users.id, userId));
  return windowUseOf(row);
}

/** A window's start, or where a statement built once takes it (http/fast-paths/built-once.ts). */
type WindowStart = Date | SQL;

/** Statuses whose orders no longer count toward the limits. The trigger of migration 0022 names them too. */
export const NOT_COUNTED_STATUSES = ['expired', 'cancelled'] as const;

/**
 * The columns of `sumOrderValuesSince`, each window's value as PostgreSQL's numeric text, for a
 * statement on the customer's `users` row (one row whatever their orders).
 */
export function windowSums(
  userId: string | SQL,
  since: { day: WindowStart; week: WindowStart; month: WindowStart },
  exceptOrderId?: string,
) {
  return {
    day: valueSince(userId, since.day, exceptOrderId),
    week: valueSince(userId, since.week, exceptOrderId),
    month: valueSince(userId, since.month, exceptOrderId),
  };
}

/**
 * The value of the customer's counted orders created after `start`: the whole UTC days after it from
 * `order_value_days` (kept by a trigger, schema.ts), and the orders of its own, partial day one by one.
 * Its cost follows the orders of one day, not of the whole window.
 */
function valueSince(userId: string | SQL, start: WindowStart, exceptOrderId?: string): SQL<string> {
  const from = sql`${start instanceof Date ? start.toISOString() : start}::timestamptz`;
  const firstWholeDay = sql`((${from} at time zone 'UTC')::date + 1)`;
  const counted = and(eq(orders.userId, userId), notInArray(orders.status, [...NOT_COUNTED_STATUSES]));
  const wholeDays = sql`(select sum(${orderValueDays.valueCents}) from ${orderValueDays}
    where ${orderValueDays.userId} = ${userId} and ${orderValueDays.day} >= ${firstWholeDay})`;
  const partialDay = sql`(select sum(${orders.valueCents}) from ${orders}
    where ${and(counted, gt(orders.createdAt, from), lt(orders.createdAt, sql`(${firstWholeDay}::timestamp at time zone 'UTC')`))})`;
  const except = exceptOrderId
    ? sql` - coalesce((select ${orders.valueCents} from ${orders}
        where ${and(counted, eq(orders.id, exceptOrderId), gt(orders.createdAt, from))}), 0)`
    : sql``;
  return sql<string>`(coalesce(${wholeDays}, 0) + coalesce(${partialDay}, 0)${except})`;
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
