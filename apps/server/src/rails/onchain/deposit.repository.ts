import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { ChainOutput } from '../../chain/chain-api';
import type { Database, Transaction } from '../../db/database';
import {
  deposits,
  depositScanBlocks,
  orders,
  sellDepositTerms,
  type DepositRow,
  type DepositScanBlockRow,
  type OrderRow,
  type SellDepositTermsRow,
} from '../../db/schema';

/** The SQL of sell deposits: the address index sequence and the `deposits` rows the watcher keeps. */

/** The next never-used deposit address index (`deposit_index_seq`). */
export async function nextDepositIndex(tx: Transaction): Promise<number> {
  // Both drivers answer raw queries as { rows }.
  const result: unknown = await tx.execute(sql`select nextval('deposit_index_seq') as index`);
  const depositIndex = Number((result as { rows: { index: string | number }[] }).rows[0]?.index);
  if (!Number.isSafeInteger(depositIndex)) throw new Error('deposit index sequence returned nothing');
  return depositIndex;
}

/**
 * Sell orders whose deposit address is watched: open ones; expired or cancelled ones whose window
 * closed after `lateSince` (a late deposit is still credited); and completed ones whose deposit is not
 * yet `settledConfirmations` deep (a reorganisation or double spend could still take it back), unless
 * it was already found reversed.
 */
export async function findWatchedSellOrders(
  db: Database,
  lateSince: Date,
  settledConfirmations: number,
): Promise<OrderRow[]> {
  return db.select().from(orders).where(watchedSellOrder(lateSince, settledConfirmations));
}

function watchedSellOrder(lateSince: Date, settledConfirmations: number) {
  return and(
    eq(orders.type, 'sell'),
    isNotNull(orders.walletAddress),
    or(
      inArray(orders.status, ['pending', 'processing']),
      and(inArray(orders.status, ['expired', 'cancelled']), gt(orders.quoteExpiresAt, lateSince)),
      and(
        eq(orders.status, 'completed'),
        lt(orders.confirmations, settledConfirmations),
        or(isNull(orders.flag), ne(orders.flag, 'deposit_reversed')),
      ),
    ),
  );
}

/** A watched order as the deposit watcher matches outputs against it: only what that needs. */
export interface WatchedAddress {
  orderId: string;
  address: string;
  createdAt: Date;
}

/** The deposit addresses of the sell orders `findWatchedSellOrders` names, in one query. */
export async function findWatchedDepositAddresses(
  db: Database,
  lateSince: Date,
  settledConfirmations: number,
): Promise<WatchedAddress[]> {
  const rows = await db
    .select({ orderId: orders.id, address: orders.walletAddress, createdAt: orders.createdAt })
    .from(orders)
    .where(watchedSellOrder(lateSince, settledConfirmations));
  return rows.flatMap((row) => (row.address ? [{ ...row, address: row.address }] : []));
}

/** The deposits still on the chain (as far as we know) of every watched sell order, in one query. */
export async function findSeenDepositsOfWatchedOrders(
  db: Database,
  lateSince: Date,
  settledConfirmations: number,
): Promise<DepositRow[]> {
  return db
    .select()
    .from(deposits)
    .where(
      and(
        eq(deposits.status, 'seen'),
        inArray(
          deposits.orderId,
          db.select({ id: orders.id }).from(orders).where(watchedSellOrder(lateSince, settledConfirmations)),
        ),
      ),
    )
    .orderBy(asc(deposits.firstSeenAt), asc(deposits.txid), asc(deposits.vout));
}

/** The newest blocks the watcher matched, newest first. */
export async function findNewestScanBlocks(db: Database, limit: number): Promise<DepositScanBlockRow[]> {
  return db.select().from(depositScanBlocks).orderBy(desc(depositScanBlocks.height)).limit(limit);
}

/** The matched blocks at these heights. */
export async function findScanBlocksAt(db: Database, heights: number[]): Promise<DepositScanBlockRow[]> {
  if (heights.length === 0) return [];
  return db.select().from(depositScanBlocks).where(inArray(depositScanBlocks.height, heights));
}

/**
 * Records blocks as matched. A height already recorded with the same hash keeps its first reading
 * time (another watcher read it first); with another hash (a reorganisation) it is replaced.
 */
export async function saveScanBlocks(
  db: Database,
  blocks: { height: number; hash: string }[],
  now: Date,
): Promise<void> {
  if (blocks.length === 0) return;
  await db
    .insert(depositScanBlocks)
    .values(blocks.map((block) => ({ ...block, scannedAt: now })))
    .onConflictDoUpdate({
      target: depositScanBlocks.height,
      set: { hash: sql`excluded.hash`, scannedAt: sql`excluded.scanned_at` },
      setWhere: sql`${depositScanBlocks.hash} <> excluded.hash`,
    });
}

/** Forgets the matched blocks above `height` (a reorganisation replaced them); all of them when null. */
export async function deleteScanBlocksAbove(db: Database, height: number | null): Promise<void> {
  await db
    .delete(depositScanBlocks)
    .where(height === null ? undefined : gt(depositScanBlocks.height, height));
}

/**
 * The terms every deposit of the order is priced against, written by its first credit (`initial`)
 * and never changed after: the first writer wins, later calls read what it wrote.
 */
export async function findOrCreateDepositTerms(
  tx: Transaction,
  initial: Omit<SellDepositTermsRow, 'createdAt'>,
): Promise<SellDepositTermsRow> {
  await tx.insert(sellDepositTerms).values(initial).onConflictDoNothing();
  const [terms] = await tx
    .select()
    .from(sellDepositTerms)
    .where(eq(sellDepositTerms.orderId, initial.orderId));
  if (!terms) throw new Error('deposit terms insert returned nothing');
  return terms;
}

/** The order's deposits still on the chain as far as we know, oldest first (inside a transaction). */
export async function findSeenDepositsIn(tx: Database | Transaction, orderId: string): Promise<DepositRow[]> {
  return tx
    .select()
    .from(deposits)
    .where(and(eq(deposits.orderId, orderId), eq(deposits.status, 'seen')))
    .orderBy(asc(deposits.firstSeenAt), asc(deposits.txid), asc(deposits.vout));
}

/** Changes an order's figures, deposit and flag without moving it (its status stays as it is). */
export async function repriceOrder(
  tx: Transaction,
  orderId: string,
  patch: Partial<
    Pick<
      OrderRow,
      | 'amountSats'
      | 'valueCents'
      | 'priceCents'
      | 'platformFeeCents'
      | 'receivedSats'
      | 'txn'
      | 'confirmations'
      | 'flag'
      | 'flagNote'
    >
  >,
  now: Date,
): Promise<OrderRow | undefined> {
  const [updated] = await tx
    .update(orders)
    .set({ ...patch, updatedAt: now })
    .where(eq(orders.id, orderId))
    .returning();
  return updated;
}

/** Records an output the first time any watcher sees it; undefined when `txid:vout` is known already. */
export async function insertDepositOnce(
  tx: Transaction,
  orderId: string,
  output: ChainOutput,
  confirmations: number,
): Promise<DepositRow | undefined> {
  const [inserted] = await tx
    .insert(deposits)
    .values({
      orderId,
      address: output.address,
      txid: output.txid,
      vout: output.vout,
      valueSats: output.valueSats,
      blockHeight: output.blockHeight,
      confirmations,
    })
    .onConflictDoNothing()
    .returning();
  return inserted;
}

/** Marks a vanished output as seen again (rebroadcast); undefined unless it had vanished. */
export async function reviveVanishedDeposit(
  tx: Transaction,
  output: ChainOutput,
  confirmations: number,
  now: Date,
): Promise<DepositRow | undefined> {
  const [revived] = await tx
    .update(deposits)
    .set({ status: 'seen', blockHeight: output.blockHeight, confirmations, updatedAt: now })
    .where(
      and(eq(deposits.txid, output.txid), eq(deposits.vout, output.vout), eq(deposits.status, 'vanished')),
    )
    .returning();
  return revived;
}

/** The outputs credited to an order that are still on the chain as far as we know. */
export async function findSeenDeposits(db: Database, orderId: string): Promise<DepositRow[]> {
  return db
    .select()
    .from(deposits)
    .where(and(eq(deposits.orderId, orderId), eq(deposits.status, 'seen')));
}

/** Marks a seen deposit as vanished; false if another watcher did first. */
export async function markDepositVanished(tx: Transaction, depositId: string, now: Date): Promise<boolean> {
  const vanished = await tx
    .update(deposits)
    .set({ status: 'vanished', updatedAt: now })
    .where(and(eq(deposits.id, depositId), eq(deposits.status, 'seen')))
    .returning({ id: deposits.id });
  return vanished.length > 0;
}

/** Stores a new confirmation count, only if the row still has the count `deposit` was read with. */
export async function updateDepositConfirmations(
  db: Database,
  deposit: DepositRow,
  count: { confirmations: number; blockHeight: number | null },
  now: Date,
): Promise<boolean> {
  const counted = await db
    .update(deposits)
    .set({ ...count, updatedAt: now })
    .where(
      and(
        eq(deposits.id, deposit.id),
        eq(deposits.status, 'seen'),
        eq(deposits.confirmations, deposit.confirmations),
      ),
    )
    .returning({ id: deposits.id });
  return counted.length > 0;
}
