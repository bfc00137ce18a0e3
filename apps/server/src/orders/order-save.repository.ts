import { eq, sql, type SQL } from 'drizzle-orm';
import type { TypedQueryBuilder } from 'drizzle-orm/query-builders/query-builder';
import { BUY_CHECK_MESSAGES } from '@offzero/shared/api/orders';
import type { LimitTier } from '@offzero/shared/api/limits';
import type { Database, Transaction } from '../db/database';
import { AppError } from '../http/errors';
import { builtOnce, param, type BuiltOnce } from '../http/fast-paths/built-once';
import { kycRecords, orderEvents, orders, users, type OrderRow, type UserRow } from '../db/schema';
import {
  buyerVerdictColumns,
  buyerVerdictsOf,
  joinKycRecord,
  type BuyerVerdicts,
} from './customer.repository';
import { screeningKey } from '../compliance/sanctions/sanctions-screening';

/**
 * The SQL of saving an order: the customer's lock that serialises their saves, and the insert of the
 * order with its first audit event. Its twin check and limit windows are in order-twins.repository.ts.
 */

export type NewOrder = Omit<typeof orders.$inferInsert, 'id' | 'status' | 'createdAt' | 'updatedAt'>;

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
