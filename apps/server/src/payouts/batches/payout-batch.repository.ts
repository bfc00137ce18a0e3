import { and, asc, desc, eq, inArray, isNotNull, isNull, notExists, notInArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database, Transaction } from '../../db/database';
import {
  globalSettings,
  orderEvents,
  orders,
  payoutAddresses,
  payoutBatchClaims,
  payoutBatchOrders,
  payoutBatches,
  payouts,
  type OrderRow,
  type PayoutAddressRow,
  type PayoutBatchOrderRow,
  type PayoutBatchRow,
} from '../../db/schema';
import { isUniqueViolation } from '../../db/postgres-errors';
import { AppError } from '../../http/errors';
import { isUuid } from '../../http/ids';

/** The SQL of payout batches (docs/design.md): batches, their customers' outputs, and the order claims. */

export type NewPayoutBatch = Omit<typeof payoutBatches.$inferInsert, 'id' | 'createdAt'>;

/** A batch with the outputs of its orders. */
export interface BatchWithOrders {
  batch: PayoutBatchRow;
  orders: PayoutBatchOrderRow[];
}

/**
 * Serializes batch building across every process: the change index and the wallet's coins are chosen
 * by one builder at a time (a transaction-scoped advisory lock, released at commit).
 */
export async function lockBatchBuilding(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('offzero:payout-batch-build'))`);
}

/**
 * What makes a buy's bitcoin due: paid (payment confirmed), processing, unflagged, to a bitcoin
 * destination (not a Lightning one), not paid out or in flight, not held by a batch.
 */
function dueBuyConditions(db: Database | Transaction) {
  return and(
    eq(orders.type, 'buy'),
    eq(orders.status, 'processing'),
    isNotNull(orders.paymentConfirmedAt),
    isNull(orders.flag),
    // A Lightning destination is paid by the node, not a batch, until it is sent on chain instead.
    sql`not (lower(coalesce(${orders.walletAddress}, '')) similar to '(ln|lightning:)%' or coalesce(${orders.walletAddress}, '') like '%@%')`,
    notExists(
      db
        .select({ one: sql`1` })
        .from(payouts)
        .where(
          and(
            eq(payouts.orderId, orders.id),
            eq(payouts.purpose, 'payout'),
            notInArray(payouts.state, ['failed', 'cancelled']),
          ),
        ),
    ),
    notExists(
      db
        .select({ one: sql`1` })
        .from(payoutBatchClaims)
        .where(eq(payoutBatchClaims.orderId, orders.id)),
    ),
  );
}

/** Buys whose bitcoin is due, oldest first. */
export async function findDueBuyOrders(db: Database | Transaction, limit = 500): Promise<OrderRow[]> {
  return db.select().from(orders).where(dueBuyConditions(db)).orderBy(asc(orders.createdAt)).limit(limit);
}

/** A due buy with its address-book entry (null when it has none) and the operator's proof threshold. */
export interface DueBuyWithEntry {
  order: OrderRow;
  entry: PayoutAddressRow | null;
  proofRequiredCents: bigint | null;
}

/** The address-book entry a buy from before the address book is matched to by its address. */
const entryByAddress = alias(payoutAddresses, 'entry_by_address');

/**
 * Due buys, oldest first, each with its address-book entry in the same query: the entry it names, or
 * (buys from before the address book) the customer's active entry of its address. Two joins, each an
 * index read, rather than one join on either condition, which no index answers (docs/performance.md,
 * "At scale").
 */
export async function findDueBuysWithEntries(db: Database, limit = 500): Promise<DueBuyWithEntry[]> {
  const rows = await db
    .select({
      order: orders,
      named: payoutAddresses,
      byAddress: entryByAddress,
      proofRequiredCents: globalSettings.proofRequiredCents,
    })
    .from(orders)
    .leftJoin(payoutAddresses, eq(payoutAddresses.id, orders.payoutAddressId))
    .leftJoin(
      entryByAddress,
      and(
        isNull(orders.payoutAddressId),
        eq(entryByAddress.userId, orders.userId),
        eq(entryByAddress.address, orders.walletAddress),
        isNull(entryByAddress.removedAt),
      ),
    )
    .innerJoin(globalSettings, eq(globalSettings.id, 1))
    .where(dueBuyConditions(db))
    .orderBy(asc(orders.createdAt))
    .limit(limit);
  return rows.map(({ order, named, byAddress, proofRequiredCents }) => ({
    order,
    entry: named ?? byAddress,
    proofRequiredCents,
  }));
}

/** Locks the given orders (in id order, so two lockers never deadlock) and answers them. */
export async function lockOrders(tx: Transaction, orderIds: string[]): Promise<OrderRow[]> {
  if (orderIds.length === 0) return [];
  return tx.select().from(orders).where(inArray(orders.id, orderIds)).orderBy(asc(orders.id)).for('update');
}

/** The batch holding an order (its first version), if any. */
export async function findBatchClaim(
  tx: Transaction | Database,
  orderId: string,
): Promise<{ batchId: string } | undefined> {
  const [claim] = await tx
    .select({ batchId: payoutBatchClaims.batchId })
    .from(payoutBatchClaims)
    .where(eq(payoutBatchClaims.orderId, orderId));
  return claim;
}

/** The batch holding an order (its first version) with that batch's state, if any. */
export async function findBatchHoldingOrder(
  db: Database | Transaction,
  orderId: string,
): Promise<Pick<PayoutBatchRow, 'id' | 'status'> | undefined> {
  if (!isUuid(orderId)) return undefined;
  const [row] = await db
    .select({ id: payoutBatches.id, status: payoutBatches.status })
    .from(payoutBatchClaims)
    .innerJoin(payoutBatches, eq(payoutBatches.id, payoutBatchClaims.batchId))
    .where(eq(payoutBatchClaims.orderId, orderId));
  return row;
}

/** Coins that a batch not yet on the network plans to spend: no other batch may take them. */
export async function findReservedOutpoints(tx: Transaction): Promise<Set<string>> {
  const rows = await tx
    .select({ inputs: payoutBatches.inputs })
    .from(payoutBatches)
    .where(inArray(payoutBatches.status, ['awaiting_signature', 'broadcasting']));
  return new Set(rows.flatMap((row) => row.inputs.map((input) => `${input.txid}:${input.vout}`)));
}

/** The highest change index any batch used; -1 when none did. */
export async function findHighestChangeIndex(tx: Transaction | Database): Promise<number> {
  const [row] = await tx
    .select({ highest: sql<number | null>`max(${payoutBatches.changeIndex})` })
    .from(payoutBatches);
  return row?.highest === null || row?.highest === undefined ? -1 : Number(row.highest);
}

/**
 * Records a batch and its outputs; for a first version also claims its orders. A claim that exists
 * already (another builder won the order) answers 409 and nothing is written.
 */
export async function insertBatch(
  tx: Transaction,
  values: NewPayoutBatch,
  outputs: { orderId: string; address: string; amountSats: bigint }[],
  claimOrders: boolean,
): Promise<BatchWithOrders> {
  const [batch] = await tx.insert(payoutBatches).values(values).returning();
  if (!batch) throw new Error('payout batch insert returned nothing');
  const rows = await tx
    .insert(payoutBatchOrders)
    .values(outputs.map((output) => ({ ...output, batchId: batch.id })))
    .returning();
  if (claimOrders) {
    try {
      await tx
        .insert(payoutBatchClaims)
        .values(outputs.map((output) => ({ orderId: output.orderId, batchId: batch.id })));
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError(
          'CONFLICT',
          'An order of this batch is already in another batch. Build the batch again.',
        );
      }
      throw error;
    }
  }
  return { batch, orders: rows };
}

export async function findBatch(
  db: Database | Transaction,
  batchId: string,
): Promise<BatchWithOrders | undefined> {
  if (!isUuid(batchId)) return undefined;
  const [batch] = await db.select().from(payoutBatches).where(eq(payoutBatches.id, batchId));
  if (!batch) return undefined;
  const rows = await db
    .select()
    .from(payoutBatchOrders)
    .where(eq(payoutBatchOrders.batchId, batchId))
    .orderBy(asc(payoutBatchOrders.address), asc(payoutBatchOrders.orderId));
  return { batch, orders: sortOutputs(rows) };
}

/** Locks a batch row for a change of its state. */
export async function lockBatch(tx: Transaction, batchId: string): Promise<BatchWithOrders | undefined> {
  if (!isUuid(batchId)) return undefined;
  const [batch] = await tx.select().from(payoutBatches).where(eq(payoutBatches.id, batchId)).for('update');
  if (!batch) return undefined;
  const rows = await tx.select().from(payoutBatchOrders).where(eq(payoutBatchOrders.batchId, batchId));
  return { batch, orders: sortOutputs(rows) };
}

/** The newest batches, each with its outputs. */
export async function listBatches(db: Database, limit: number): Promise<BatchWithOrders[]> {
  const batches = await db.select().from(payoutBatches).orderBy(desc(payoutBatches.createdAt)).limit(limit);
  if (batches.length === 0) return [];
  const rows = await db
    .select()
    .from(payoutBatchOrders)
    .where(
      inArray(
        payoutBatchOrders.batchId,
        batches.map((batch) => batch.id),
      ),
    );
  return batches.map((batch) => ({
    batch,
    orders: sortOutputs(rows.filter((row) => row.batchId === batch.id)),
  }));
}

/** The version that replaced a batch (its fee bump), if any. */
export async function findReplacement(
  db: Database | Transaction,
  batchId: string,
): Promise<PayoutBatchRow | undefined> {
  const [row] = await db.select().from(payoutBatches).where(eq(payoutBatches.replacesBatchId, batchId));
  return row;
}

export async function updateBatch(
  tx: Transaction | Database,
  batchId: string,
  patch: Partial<Pick<PayoutBatchRow, 'status' | 'signedTxHex' | 'txid' | 'broadcastAt' | 'blockHeight'>>,
): Promise<PayoutBatchRow> {
  try {
    const [row] = await tx.update(payoutBatches).set(patch).where(eq(payoutBatches.id, batchId)).returning();
    if (!row) throw new Error('payout batch update returned nothing');
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError('CONFLICT', 'This signed transaction belongs to another batch.');
    }
    throw error;
  }
}

/** Records which output of the signed transaction pays each order. */
export async function recordBatchVouts(
  tx: Transaction,
  batchId: string,
  vouts: { orderId: string; vout: number }[],
): Promise<void> {
  for (const { orderId, vout } of vouts) {
    await tx
      .update(payoutBatchOrders)
      .set({ vout })
      .where(and(eq(payoutBatchOrders.batchId, batchId), eq(payoutBatchOrders.orderId, orderId)));
  }
}

/** Frees the orders of a batch dropped before it was signed. */
export async function releaseClaims(tx: Transaction, batchId: string): Promise<void> {
  await tx.delete(payoutBatchClaims).where(eq(payoutBatchClaims.batchId, batchId));
}

/**
 * A fee bump replaced the transaction that paid a completed buy: the order's `txn` follows the new
 * transaction and its timeline says why. The status does not change (the order stays completed).
 */
export async function recordReplacedPayout(
  tx: Transaction,
  order: OrderRow,
  replacement: { txid: string; vout: number; actor: string },
): Promise<OrderRow> {
  const [updated] = await tx
    .update(orders)
    .set({ txn: replacement.txid, updatedAt: new Date() })
    .where(eq(orders.id, order.id))
    .returning();
  if (!updated) throw new Error('order update returned nothing');
  await tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: order.status,
    actor: replacement.actor,
    reason: 'bitcoin payout re-sent with a higher network fee (same amount, same address)',
    details: {
      event: 'payout_fee_bumped',
      txid: replacement.txid,
      vout: replacement.vout,
      previousTxid: order.txn,
    },
  });
  return updated;
}

/** Outputs in a stable order: by vout once signed, else as built. */
function sortOutputs(rows: PayoutBatchOrderRow[]): PayoutBatchOrderRow[] {
  return [...rows].sort((a, b) => (a.vout ?? 1e9) - (b.vout ?? 1e9) || a.orderId.localeCompare(b.orderId));
}
