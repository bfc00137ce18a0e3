import { and, asc, eq, gte, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { orderEvents, orders, taxIdentities, users, type OrderRow, type TaxIdentityRow } from '../db/schema';

/** The SQL of tax identities (Form W-9) and of the completed orders that tax documents list. */

export type NewTaxIdentity = Omit<typeof taxIdentities.$inferInsert, 'updatedAt'>;

export async function findTaxIdentity(
  db: Database | Transaction,
  userId: string,
): Promise<TaxIdentityRow | undefined> {
  const [row] = await db.select().from(taxIdentities).where(eq(taxIdentities.userId, userId));
  return row;
}

/** Files or replaces the customer's W-9 (the newest certification is the one that counts). */
export async function upsertTaxIdentity(db: Database, values: NewTaxIdentity): Promise<TaxIdentityRow> {
  const { userId: _key, ...rest } = values;
  const [row] = await db
    .insert(taxIdentities)
    .values(values)
    .onConflictDoUpdate({ target: taxIdentities.userId, set: { ...rest, updatedAt: new Date() } })
    .returning();
  if (!row) throw new Error('tax identity upsert returned nothing');
  return row;
}

/** Every W-9 row whose TIN is encrypted under another key than `currentKeyId` (for the rewrap command). */
export async function findTaxIdentitiesNotUnderKey(
  db: Database,
  currentKeyId: string,
): Promise<TaxIdentityRow[]> {
  return db
    .select()
    .from(taxIdentities)
    .where(sql`split_part(${taxIdentities.tinEncrypted}, '.', 2) <> ${currentKeyId}`);
}

export async function replaceEncryptedTin(
  db: Database,
  userId: string,
  before: string,
  after: string,
): Promise<boolean> {
  const updated = await db
    .update(taxIdentities)
    .set({ tinEncrypted: after })
    .where(and(eq(taxIdentities.userId, userId), eq(taxIdentities.tinEncrypted, before)))
    .returning({ userId: taxIdentities.userId });
  return updated.length === 1;
}

/** The first instant of a calendar year and of the next one, in UTC. */
export function yearBounds(year: number): { from: Date; to: Date } {
  return { from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year + 1, 0, 1)) };
}

/** When an order counts for tax: the moment it completed (older rows without it: when it was made). */
const tradeTime = sql<Date>`coalesce(${orders.completedAt}, ${orders.createdAt})`;

/** Where the previous page ended: its last order. */
export interface YearOrderCursor {
  id: string;
}

/**
 * One page of completed orders of the year, oldest first, after `cursor`: keyset paging, so a file of
 * ten thousand orders is read a page at a time and memory stays flat however long the year was. The
 * cursor row's own time is read by the database, so no precision is lost on the way through JavaScript.
 */
export async function findCompletedOrdersPage(
  db: Database,
  filter: { year: number; userId?: string; type?: OrderRow['type'] },
  cursor: YearOrderCursor | null,
  pageSize: number,
): Promise<OrderRow[]> {
  const { from, to } = yearBounds(filter.year);
  const conditions = [
    eq(orders.status, 'completed'),
    gte(tradeTime, from),
    lt(tradeTime, to),
    filter.userId ? eq(orders.userId, filter.userId) : undefined,
    filter.type ? eq(orders.type, filter.type) : undefined,
    cursor
      ? sql`(${tradeTime}, ${orders.id}) > (select coalesce(c.completed_at, c.created_at), c.id from ${orders} c where c.id = ${cursor.id})`
      : undefined,
  ];
  return db
    .select()
    .from(orders)
    .where(and(...conditions))
    .orderBy(asc(tradeTime), asc(orders.id))
    .limit(pageSize);
}

export function tradeTimeOf(order: OrderRow): Date {
  return order.completedAt ?? order.createdAt;
}

/** The customer's own order (another customer's is not found, like a missing one). */
export async function findOwnOrder(
  db: Database,
  userId: string,
  orderId: string,
): Promise<OrderRow | undefined> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  return order;
}

export interface TimelineStep {
  at: Date;
  toStatus: OrderRow['status'];
  reason: string;
  /** What the step recorded (a payout's transaction and output among others). */
  details: Record<string, unknown> | null;
}

export async function findOrderTimeline(db: Database, orderId: string): Promise<TimelineStep[]> {
  return db
    .select({
      at: orderEvents.createdAt,
      toStatus: orderEvents.toStatus,
      reason: orderEvents.reason,
      details: orderEvents.details,
    })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.createdAt));
}

export interface SellerRow {
  order: OrderRow;
  email: string;
  identity: TaxIdentityRow | null;
}

/**
 * One page of the year's completed sells with each seller's W-9 (if any), in trade-time order after
 * `cursor`, of sellers with (`w9OnFile`) or without a W-9: the 1099-DA file lists those without first
 * (the operator must chase them before filing), each part read a page at a time by keyset, so the file
 * costs the same per line however many sells the year had (docs/performance.md, "At scale").
 */
export async function findCompletedSellsWithSellers(
  db: Database,
  filter: { year: number; w9OnFile: boolean },
  cursor: YearOrderCursor | null,
  pageSize: number,
): Promise<SellerRow[]> {
  const { from, to } = yearBounds(filter.year);
  const rows = await db
    .select({ order: orders, email: users.email, identity: taxIdentities })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(taxIdentities, eq(taxIdentities.userId, orders.userId))
    .where(
      and(
        eq(orders.type, 'sell'),
        eq(orders.status, 'completed'),
        gte(tradeTime, from),
        lt(tradeTime, to),
        filter.w9OnFile ? isNotNull(taxIdentities.userId) : isNull(taxIdentities.userId),
        cursor
          ? sql`(${tradeTime}, ${orders.id}) > (select coalesce(c.completed_at, c.created_at), c.id from ${orders} c where c.id = ${cursor.id})`
          : undefined,
      ),
    )
    .orderBy(asc(tradeTime), asc(orders.id))
    .limit(pageSize);
  return rows;
}

export interface YearSums {
  type: OrderRow['type'];
  count: number;
  sats: bigint;
  valueCents: bigint;
  feeCents: bigint;
}

/** The year's completed orders of one customer, summed per type (the statement's totals). */
export async function sumCompletedOrders(db: Database, userId: string, year: number): Promise<YearSums[]> {
  const { from, to } = yearBounds(year);
  const rows = await db
    .select({
      type: orders.type,
      count: sql<string>`count(*)`,
      sats: sql<string>`coalesce(sum(${orders.amountSats}), 0)`,
      valueCents: sql<string>`coalesce(sum(${orders.valueCents}), 0)`,
      feeCents: sql<string>`coalesce(sum(${orders.platformFeeCents} + ${orders.networkFeeCents} + ${orders.bankFeeCents}), 0)`,
    })
    .from(orders)
    .where(
      and(eq(orders.userId, userId), eq(orders.status, 'completed'), gte(tradeTime, from), lt(tradeTime, to)),
    )
    .groupBy(orders.type);
  // Sums come back as text (numeric): read into bigint, never through a float.
  return rows.map((row) => ({
    type: row.type,
    count: Number(row.count),
    sats: BigInt(row.sats),
    valueCents: BigInt(row.valueCents),
    feeCents: BigInt(row.feeCents),
  }));
}

export async function findCustomer(db: Database, userId: string) {
  const [row] = await db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}
