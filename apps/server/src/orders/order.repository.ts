import { and, asc, desc, eq, gt, isNull, lt, sql, type SQL } from 'drizzle-orm';
import type { TypedQueryBuilder } from 'drizzle-orm/query-builders/query-builder';
import { BUY_CHECK_MESSAGES } from '@offzero/shared/api/orders';
import type { LimitTier } from '@offzero/shared/api/limits';
import type { Database, Transaction } from '../db/database';
import { AppError } from '../http/errors';
import { builtOnce, param, type BuiltOnce } from '../http/fast-paths/built-once';
import {
  kycRecords,
  orderEvents,
  orders,
  payoutAddresses,
  users,
  type OrderRow,
  type PayoutAddressRow,
  type UserRow,
} from '../db/schema';
import {
  buyerVerdictColumns,
  buyerVerdictsOf,
  joinKycRecord,
  type BuyerVerdicts,
} from './customer.repository';
import { windowSums, windowUseOf, type WindowUse } from '../limits/limits.repository';
import { activeEntryIdOfAddress } from '../payout-addresses/payout-address.repository';
import { screeningKey } from '../compliance/sanctions/sanctions-screening';
import { recordFlagChange } from './order-state';

/**
 * The SQL of the `orders` table, apart from status changes: those go through `moveOrder`
 * (order-state.ts), the one writer of `status`.
 */

export type NewOrder = Omit<typeof orders.$inferInsert, 'id' | 'status' | 'createdAt' | 'updatedAt'>;

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
>;

/**
 * A new order and the audit trail's first event of it ('order created', by `actor`), in one statement:
 * the event is inserted from the order's returned row, so the two are written together or not at all.
 * The statement is built once for each set of columns a save gives (http/fast-paths/built-once.ts).
 */
export async function insertOrderCreated(
  tx: Transaction,
  values: NewOrder,
  actor: string,
): Promise<OrderRow> {
  const columns = Object.keys(values).filter((key) => values[key as keyof NewOrder] !== undefined);
  const shape = columns.sort().join(',');
  let insert = orderCreatedInserts.get(shape);
  if (!insert) {
    insert = builtOnce<OrderRow>((db) => orderCreatedInsert(db, columns));
    orderCreatedInserts.set(shape, insert);
  }
  const [order] = await insert(tx, { ...values, actor });
  if (!order) throw new Error('order insert returned nothing');
  return order;
}

/** One statement per set of order columns given (a buy's and a sell's differ). */
const orderCreatedInserts = new Map<string, BuiltOnce<OrderRow>>();

function orderCreatedInsert(db: Database | Transaction, columns: string[]) {
  const row = Object.fromEntries(columns.map((column) => [column, param(column)])) as unknown as NewOrder;
  const created = db.$with('created_order').as(db.insert(orders).values(row).returning());
  const column = (name: string) => sql.identifier(name);
  const event = db.$with('created_order_event').as(
    asWithQuery(sql`insert into ${orderEvents} (${column(orderEvents.orderId.name)}, ${column(orderEvents.fromStatus.name)}, ${column(orderEvents.toStatus.name)}, ${column(orderEvents.actor.name)}, ${column(orderEvents.reason.name)})
      select ${created.id}, null, ${created.status}, ${param('actor')}, 'order created' from ${created}`),
  );
  return db.with(created, event).select().from(created);
}

/** A statement drizzle has no builder for, as a WITH query (drizzle asks a WITH query only for its SQL). */
function asWithQuery(query: SQL): TypedQueryBuilder<undefined> {
  return { _: { selectedFields: undefined, result: undefined }, getSQL: () => query };
}

/**
 * Serialises one customer's saves (docs/design.md): their user row stays locked until the
 * transaction ends, so a second save waits and then sees the first one's order. Answers the
 * customer's trading-limit tier as the locked row has it. A customer restricted or disabled since the
 * request's session was checked is refused here, under the lock.
 */
export async function lockCustomerForSave(tx: Transaction, userId: string): Promise<LimitTier> {
  // NO KEY UPDATE: saves wait for each other, rows that merely reference the customer do not.
  const [row] = await tx
    .select({ tier: users.limitTier, restrictedAt: users.restrictedAt, disabledAt: users.disabledAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('no key update');
  return lockedTier(row);
}

/**
 * `lockCustomerForSave` for a buy priced from the served price: the same lock, in the same statement
 * as the buyer's verdicts (`findBuyerVerdicts`), which are read as the lock is taken.
 */
export async function lockBuyerForSave(
  tx: Transaction,
  userId: string,
  payoutAddress: string | null,
): Promise<{ tier: LimitTier; verdicts: BuyerVerdicts }> {
  const [row] =
    payoutAddress === null
      ? await lockBuyer.withoutAddress(tx, { userId })
      : await lockBuyer.screeningAddress(tx, { userId, addressKey: screeningKey(payoutAddress) });
  return { tier: lockedTier(row), verdicts: buyerVerdictsOf(row) };
}

// NO KEY UPDATE OF users: saves wait for each other; the KYC record read with it is not locked.
const lockBuyerSelect = (db: Database | Transaction, screensAddress: boolean) =>
  db
    .select({
      tier: users.limitTier,
      restrictedAt: users.restrictedAt,
      disabledAt: users.disabledAt,
      ...buyerVerdictColumns(db, screensAddress ? param('addressKey') : null),
    })
    .from(users)
    .leftJoin(kycRecords, joinKycRecord)
    .where(eq(users.id, param('userId')))
    .for('no key update', { of: users });

type LockedBuyer = Awaited<ReturnType<typeof lockBuyerSelect>>[number];
const lockBuyer = {
  withoutAddress: builtOnce<LockedBuyer>((db) => lockBuyerSelect(db, false)),
  screeningAddress: builtOnce<LockedBuyer>((db) => lockBuyerSelect(db, true)),
};

function lockedTier(
  row: (Pick<UserRow, 'restrictedAt' | 'disabledAt'> & { tier: number }) | undefined,
): LimitTier {
  if (!row || row.disabledAt) throw new AppError('UNAUTHENTICATED', 'Your session has ended. Log in again.');
  if (row.restrictedAt) throw new AppError('FORBIDDEN', BUY_CHECK_MESSAGES.accountRestricted);
  return row.tier === 2 ? 2 : 1;
}

/** How long a second identical save answers the first order instead of making another. */
export const DOUBLE_SUBMIT_WINDOW_SECONDS = 10;

/**
 * The customer's pending order of the same type and figures (and the same payout address or payout
 * method) created in the last 10 seconds: a double submission of the order being saved.
 */
export async function findRecentTwinOrder(tx: Transaction, twin: TwinOf): Promise<OrderRow | undefined> {
  const [order] = await tx
    .select()
    .from(orders)
    .where(isRecentTwin(twin))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return order;
}

type TwinOf = Pick<
  OrderRow,
  'userId' | 'type' | 'amountSats' | 'valueCents' | 'walletAddress' | 'paymentMethod'
>;

/** A twin's values, or where a statement built once takes them (http/fast-paths/built-once.ts). */
type TwinCondition = {
  [K in keyof TwinOf]: K extends 'type' ? TwinOf[K] : TwinOf[K] | SQL;
};

function isRecentTwin(twin: TwinCondition) {
  return and(
    eq(orders.userId, twin.userId),
    eq(orders.type, twin.type),
    eq(orders.status, 'pending'),
    eq(orders.amountSats, twin.amountSats),
    eq(orders.valueCents, twin.valueCents),
    twin.type === 'buy'
      ? twin.walletAddress === null
        ? isNull(orders.walletAddress)
        : eq(orders.walletAddress, twin.walletAddress)
      : twin.paymentMethod === null
        ? isNull(orders.paymentMethod)
        : eq(orders.paymentMethod, twin.paymentMethod),
    gt(orders.createdAt, sql`now() - make_interval(secs => ${DOUBLE_SUBMIT_WINDOW_SECONDS})`),
  );
}

/**
 * What a save asks under the customer's lock, in one statement: its recent twin (a double submission,
 * see `findRecentTwinOrder`), the value of the customer's orders in each trading-limit window
 * (`sumOrderValuesSince`) and, for a buy to a plain address, the id of that address's entry in the
 * customer's address book (null when it has none yet). The twin's row is read only when there is one.
 */
export async function findTwinAndWindowUse(
  tx: Transaction,
  twin: TwinOf,
  since: { day: Date; week: Date; month: Date },
  payoutAddress: string | null = null,
): Promise<{ twin: OrderRow | undefined; used: WindowUse; payoutEntryId: string | null }> {
  const shape: TwinShape = {
    type: twin.type,
    walletAddress: twin.walletAddress !== null,
    paymentMethod: twin.paymentMethod !== null,
    payoutAddress: payoutAddress !== null,
  };
  const key = JSON.stringify(shape);
  let statement = twinAndWindowUseStatements.get(key);
  if (!statement) {
    statement = builtOnce((db) => twinAndWindowUseSelect(db, shape));
    twinAndWindowUseStatements.set(key, statement);
  }
  const [row] = await statement(tx, {
    ...twin,
    day: since.day,
    week: since.week,
    month: since.month,
    payoutAddress,
  });
  const payoutEntryId = row?.payoutEntryId ?? null;
  if (row?.twinId) return { twin: await findOrder(tx, row.twinId), used: windowUseOf(row), payoutEntryId };
  return { twin: undefined, used: windowUseOf(row), payoutEntryId };
}

/** Which of the twin's values a save has: the statement's text depends on them alone. */
interface TwinShape {
  type: OrderRow['type'];
  walletAddress: boolean;
  paymentMethod: boolean;
  payoutAddress: boolean;
}

type TwinAndWindowUse = {
  day: string;
  week: string;
  month: string;
  twinId: string | null;
  payoutEntryId: string | null;
};
const twinAndWindowUseStatements = new Map<string, BuiltOnce<TwinAndWindowUse>>();

function twinAndWindowUseSelect(db: Database | Transaction, shape: TwinShape) {
  const userId = param('userId');
  const twinId = db
    .select({ id: orders.id })
    .from(orders)
    .where(
      isRecentTwin({
        userId,
        type: shape.type,
        amountSats: param('amountSats'),
        valueCents: param('valueCents'),
        walletAddress: shape.walletAddress ? param('walletAddress') : null,
        paymentMethod: shape.paymentMethod ? param('paymentMethod') : null,
      }),
    )
    .orderBy(desc(orders.createdAt))
    .limit(1);
  const entryId = shape.payoutAddress
    ? sql<string | null>`(${activeEntryIdOfAddress(db, userId, param('payoutAddress'))})`
    : sql<string | null>`null`;
  const since = { day: param('day'), week: param('week'), month: param('month') };
  // On the customer's own row: one row, whatever their orders.
  return db
    .select({ ...windowSums(userId, since), twinId: sql<string | null>`(${twinId})`, payoutEntryId: entryId })
    .from(users)
    .where(eq(users.id, userId));
}

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
