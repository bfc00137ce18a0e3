import { and, asc, desc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { orderEvents, orders, payoutAddresses, type OrderRow, type PayoutAddressRow } from '../db/schema';
import { recordFlagChange } from './order-state';

/**
 * The SQL of the `orders` table, apart from status changes: those go through `moveOrder`
 * (order-state.ts), the one writer of `status`. Reads and updates here; a save's statements in
 * order-save.repository.ts and order-twins.repository.ts.
 */

// The save's statements, for the pricing use-cases that lock and check as a save does.
export { lockBuyerForSave, lockCustomerForSave } from './order-save.repository';
export { DOUBLE_SUBMIT_WINDOW_SECONDS } from './order-twins.repository';

/** The columns a re-quote replaces on a pending order. */
export type QuotePatch = Pick<
  typeof orders.$inferInsert,
  | 'amountSats'
  | 'valueCents'
  | 'priceCents'
  | 'platformFeeCents'
  | 'networkFeeCents'
  | 'bankFeeCents'
  | 'priceSnapshotId'
  | 'walletAddress'
  | 'payoutAddressId'
  | 'quoteExpiresAt'
  | 'jurisdictionVersion'
  | 'jurisdictionCode'
  | 'coolingUntil'
  | 'scamCheck'
  | 'origin'
>;

export async function findOrder(db: Database | Transaction, orderId: string): Promise<OrderRow | undefined> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  return order;
}

/** The order only if it belongs to `userId`. */
export async function findCustomerOrder(
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

/** Reads the order and locks its row until the transaction ends. */
export async function lockOrder(tx: Transaction, orderId: string): Promise<OrderRow | undefined> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return order;
}

/** A customer's orders, newest first. */
export async function listCustomerOrders(db: Database, userId: string, limit: number): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt))
    .limit(limit);
}

/** An order of a customer's list with the address-book entry it pays out to (null for none or a sell). */
export interface ListedOrder {
  order: OrderRow;
  entry: PayoutAddressRow | null;
}

/**
 * The customer's orders, newest first, each with the payout address-book entry it names: one query
 * for the whole list rather than one more per buy.
 */
export async function listCustomerOrdersWithPayoutEntries(
  db: Database,
  userId: string,
  limit: number,
): Promise<ListedOrder[]> {
  return listStatementOf(db).execute({ userId, limit });
}

/**
 * The order list is every signed-in customer's most frequent read: on PostgreSQL it is a named prepared
 * statement, parsed and planned once per connection (the embedded database keeps it by its text). One
 * per database handle, as a prepared query belongs to the handle that made it.
 */
const listStatements = new WeakMap<Database, ReturnType<typeof prepareListStatement>>();

function listStatementOf(db: Database) {
  let statement = listStatements.get(db);
  if (!statement) {
    statement = prepareListStatement(db);
    listStatements.set(db, statement);
  }
  return statement;
}

function prepareListStatement(db: Database) {
  return db
    .select({ order: orders, entry: payoutAddresses })
    .from(orders)
    .leftJoin(payoutAddresses, eq(payoutAddresses.id, orders.payoutAddressId))
    .where(eq(orders.userId, sql.placeholder('userId')))
    .orderBy(desc(orders.createdAt))
    .limit(sql.placeholder('limit'))
    .prepare('offzero_list_customer_orders');
}

/** Pending orders whose quote lock or deposit window ran out before `now`. */
export async function findOverduePendingOrders(
  db: Database,
  now: Date,
  limit: number,
): Promise<Pick<OrderRow, 'id' | 'type'>[]> {
  return db
    .select({ id: orders.id, type: orders.type })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'pending'),
        lt(orders.quoteExpiresAt, now),
        // A buy whose PayPal payment PayPal holds (PENDING) is paid, not abandoned: it waits.
        isNull(orders.paypalCaptureId),
      ),
    )
    .limit(limit);
}

/** Replaces the quote of an order that is still pending; undefined when it no longer is. */
export async function updatePendingQuote(
  tx: Transaction,
  orderId: string,
  quote: QuotePatch,
  now: Date,
): Promise<OrderRow | undefined> {
  const [updated] = await tx
    .update(orders)
    .set({ ...quote, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
    .returning();
  return updated;
}

/** Stores the customer's bank reference on an order that is still processing. */
export async function setBankReference(
  db: Database,
  orderId: string,
  bankTxn: string,
  now: Date,
): Promise<OrderRow | undefined> {
  const [updated] = await db
    .update(orders)
    .set({ bankTxn, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'processing')))
    .returning();
  return updated;
}

/**
 * Flags an order for the back office (its status stays as it is), and puts the change in its timeline.
 * Inside the caller's transaction when there is one (a savepoint), in one of its own otherwise.
 */
export async function flagOrder(
  db: Database,
  orderId: string,
  flag: { flag: OrderRow['flag']; flagNote: string | null },
  now: Date,
  actor = 'system',
): Promise<OrderRow | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!before) return undefined;
    const [flagged] = await tx
      .update(orders)
      .set({ ...flag, updatedAt: now })
      .where(eq(orders.id, orderId))
      .returning();
    if (flagged) await recordFlagChange(tx, { before, after: flagged, actor });
    return flagged;
  });
}

/** Stores the confirmations of the deposit `txid`, while it is still the order's deposit. */
export async function updateDepositConfirmationsOfOrder(
  db: Database,
  orderId: string,
  txid: string,
  confirmations: number,
  now: Date,
): Promise<OrderRow | undefined> {
  const [updated] = await db
    .update(orders)
    .set({ confirmations, updatedAt: now })
    .where(and(eq(orders.id, orderId), eq(orders.txn, txid)))
    .returning();
  return updated;
}

/** The order's audit trail, oldest first (the customer's timeline is written from it). */
export async function findOrderEvents(db: Database, orderId: string) {
  return db
    .select({
      fromStatus: orderEvents.fromStatus,
      toStatus: orderEvents.toStatus,
      actor: orderEvents.actor,
      details: orderEvents.details,
      createdAt: orderEvents.createdAt,
    })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.createdAt), asc(orderEvents.id));
}
