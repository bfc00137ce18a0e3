import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import {
  deposits,
  orderEvents,
  orders,
  payoutBatchClaims,
  payoutBatches,
  users,
  type DepositRow,
  type OrderRow,
  type OrderStatus,
  type PaymentMethod,
  type PayoutBatchRow,
} from '../db/schema';
import { emailSchema } from '@offzero/shared/api/accounts';
import { idStartsWith, isUuid, quotedId } from '../http/ids';
import { recordFlagChange } from '../orders/order-state';

/** The order desk's search: every filter given must hold. */
export interface AdminOrderFilters {
  status?: OrderStatus | undefined;
  type?: 'buy' | 'sell' | undefined;
  method?: PaymentMethod | undefined;
  /** Part of an e-mail, a whole phone number, or a customer or order id or short number. */
  customer?: string | undefined;
  flagged?: 'true' | 'false' | undefined;
  /** Calendar days (UTC), both included. */
  from?: string | undefined;
  to?: string | undefined;
  limit: number;
  offset: number;
  /** The last order of the previous page (its `nextCursor`): the page starts after it. */
  cursor?: string | undefined;
}

/** An order with its customer's e-mail, as the console lists it. */
export interface OrderWithEmail {
  order: OrderRow;
  email: string;
}

export type OrderEventRow = typeof orderEvents.$inferSelect;

export interface OrderCustomer {
  _id: string;
  email: string;
  firstName: string;
  lastName: string;
  phoneNumber: string | null;
}

const escapeLike = (text: string) => text.replace(/[%_\\]/g, '\\$&');

async function filtersToWhere(db: Database, filters: AdminOrderFilters): Promise<SQL | undefined> {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(orders.status, filters.status));
  if (filters.type) conditions.push(eq(orders.type, filters.type));
  if (filters.method) conditions.push(eq(orders.paymentMethod, filters.method));
  if (filters.flagged === 'true') conditions.push(isNotNull(orders.flag));
  if (filters.from) conditions.push(gte(orders.createdAt, new Date(`${filters.from}T00:00:00Z`)));
  if (filters.to) conditions.push(lte(orders.createdAt, new Date(`${filters.to}T23:59:59.999Z`)));
  if (filters.customer) conditions.push(await ordersOfTerm(db, filters.customer));
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * The orders a search term names (docs/design.md, "API"; docs/performance.md, "At scale"), each way by
 * an index of its own:
 * - an order or customer number (id or short number): the range of ids it starts, on each primary key;
 * - a whole e-mail address that is a customer's: that customer's orders;
 * - otherwise part of an e-mail (a trigram index) or a whole phone number.
 * A number is not also read as part of an e-mail, nor a whole address first as a part: the trigram
 * index reads a list of every customer sharing each three letters ("com", "mai"), which grows with the
 * customers, for an answer the number's or the address's own index gives at once.
 */
async function ordersOfTerm(db: Database, term: string): Promise<SQL> {
  const id = quotedId(term);
  if (id) {
    const customers = sql`select ${users.id} from ${users} where ${idStartsWith(users.id, id)}`;
    return inArray(
      orders.id,
      sql`(select ${orders.id} from ${orders} where ${orders.userId} in (${customers})
        union select ${orders.id} from ${orders} where ${idStartsWith(orders.id, id)})`,
    );
  }
  const email = emailSchema.safeParse(term);
  if (email.success) {
    const [customer] = await db.select({ id: users.id }).from(users).where(eq(users.email, email.data));
    if (customer) return eq(orders.userId, customer.id);
  }
  const byText = or(ilike(users.email, `%${escapeLike(term)}%`), eq(users.phoneNumber, term))!;
  return inArray(orders.userId, sql`(select ${users.id} from ${users} where ${byText})`);
}

/**
 * One page of matching orders, newest first (ties by id), how many match in all, and the cursor of the
 * next page: the last order's id when the page is full. A page after a cursor is read by keyset, from
 * the order's `(created_at, id)`, so the thousandth page costs what the first does.
 */
export async function findOrdersMatching(
  db: Database,
  filters: AdminOrderFilters,
): Promise<{ rows: OrderWithEmail[]; total: number; nextCursor: string | null }> {
  const where = await filtersToWhere(db, filters);
  const after = filters.cursor
    ? sql`(${orders.createdAt}, ${orders.id}) < (select c.created_at, c.id from ${orders} c where c.id = ${filters.cursor})`
    : undefined;
  const rows = await db
    .select({ order: orders, email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(and(where, after))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(filters.limit)
    .offset(filters.offset);
  const [total] = await db
    .select({ n: count() })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where);
  const nextCursor = rows.length === filters.limit ? (rows[rows.length - 1]?.order.id ?? null) : null;
  return { rows, total: total?.n ?? 0, nextCursor };
}

export async function findOrder(db: Database, id: string): Promise<OrderRow | null> {
  if (!isUuid(id)) return null;
  const [order] = await db.select().from(orders).where(eq(orders.id, id));
  return order ?? null;
}

/**
 * The order as it is now, locked until the caller's transaction ends: a change made from it and the
 * audit entry's "before" both describe the same state, whatever else runs at the same time.
 */
export async function lockOrder(tx: Transaction, id: string): Promise<OrderRow | null> {
  if (!isUuid(id)) return null;
  const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
  return order ?? null;
}

export async function findOrderCustomer(db: Database, userId: string): Promise<OrderCustomer | null> {
  const [customer] = await db
    .select({
      _id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      phoneNumber: users.phoneNumber,
    })
    .from(users)
    .where(eq(users.id, userId));
  return customer ?? null;
}

/** The order's state changes, oldest first. */
export async function findOrderTimeline(db: Database, orderId: string): Promise<OrderEventRow[]> {
  return db
    .select()
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.createdAt));
}

/** The transaction outputs seen paying the order's deposit address, first seen first. */
export async function findOrderDeposits(db: Database, orderId: string): Promise<DepositRow[]> {
  return db.select().from(deposits).where(eq(deposits.orderId, orderId)).orderBy(asc(deposits.firstSeenAt));
}

/** Records that the customer's money arrived, unless someone did already; null when the order moved on. */
export async function confirmPayment(
  tx: Transaction,
  orderId: string,
  confirmedBy: string,
): Promise<OrderRow | null> {
  const [updated] = await tx
    .update(orders)
    .set({ paymentConfirmedAt: new Date(), paymentConfirmedBy: confirmedBy, updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'processing'), isNull(orders.paymentConfirmedAt)))
    .returning();
  return updated ?? null;
}

/**
 * Clears the order's flag, keeping what it was and why it was cleared in the flag note. With `change`,
 * the end of the review also goes into the order's timeline (callers that record an event of their own
 * for the same step put the flag change in it instead: one step, one event).
 */
export async function clearFlag(
  tx: Transaction,
  orderId: string,
  flagNote: string,
  change?: { actor: string; resolution: 'reviewed' | 'refunded' },
): Promise<OrderRow | null> {
  const [before] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!before) return null;
  const [updated] = await tx
    .update(orders)
    .set({ flag: null, flagNote, updatedAt: new Date() })
    .where(eq(orders.id, orderId))
    .returning();
  if (updated && change) await recordFlagChange(tx, { before, after: updated, ...change });
  return updated ?? null;
}

const QUEUE_LENGTH = 100;

function queueOf(db: Database, where: SQL | undefined): Promise<OrderWithEmail[]> {
  return db
    .select({ order: orders, email: users.email })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(where)
    .orderBy(asc(orders.updatedAt))
    .limit(QUEUE_LENGTH);
}

/** A paid buy waiting for its bitcoin, with the payout batch that holds it (if one does). */
export interface BitcoinToSendRow extends OrderWithEmail {
  batch: Pick<PayoutBatchRow, 'id' | 'status'> | null;
}

/** Paid buys whose bitcoin is not sent yet, each with the batch that holds it, oldest change first. */
function bitcoinToSendOf(db: Database): Promise<BitcoinToSendRow[]> {
  return db
    .select({
      order: orders,
      email: users.email,
      batch: { id: payoutBatches.id, status: payoutBatches.status },
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .leftJoin(payoutBatchClaims, eq(payoutBatchClaims.orderId, orders.id))
    .leftJoin(payoutBatches, eq(payoutBatches.id, payoutBatchClaims.batchId))
    .where(and(eq(orders.type, 'buy'), eq(orders.status, 'processing'), isNotNull(orders.paymentConfirmedAt)))
    .orderBy(asc(orders.updatedAt))
    .limit(QUEUE_LENGTH);
}

/** What needs a person now, each list oldest change first. */
export async function findWorkQueue(db: Database, confirmationsRequired: number) {
  const [paymentsToCheck, bitcoinToSend, sellPayoutsDue, flagged] = await Promise.all([
    queueOf(
      db,
      and(eq(orders.type, 'buy'), eq(orders.status, 'processing'), isNull(orders.paymentConfirmedAt)),
    ),
    bitcoinToSendOf(db),
    queueOf(
      db,
      and(
        eq(orders.type, 'sell'),
        eq(orders.status, 'processing'),
        gte(orders.confirmations, confirmationsRequired),
      ),
    ),
    queueOf(
      db,
      and(
        isNotNull(orders.flag),
        inArray(orders.status, ['pending', 'processing', 'expired', 'completed', 'cancelled']),
      ),
    ),
  ]);
  return { paymentsToCheck, bitcoinToSend, sellPayoutsDue, flagged };
}
