import { and, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { builtOnce, param, type BuiltOnce } from '../http/fast-paths/built-once';
import { orders, users, type OrderRow } from '../db/schema';
import { windowSums, windowUseOf, type WindowUse } from '../limits/limits.repository';
import { activeEntryIdOfAddress } from '../payout-addresses/payout-address.repository';

/**
 * What a save asks under the customer's lock before it inserts: a double submission of the same order
 * (its twin), the customer's trading-limit windows, and the address-book entry of the payout address.
 */

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
  if (row?.twinId) {
    const [order] = await tx.select().from(orders).where(eq(orders.id, row.twinId));
    return { twin: order, used: windowUseOf(row), payoutEntryId };
  }
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
