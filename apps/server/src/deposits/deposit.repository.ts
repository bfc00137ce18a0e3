import { and, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { ChainOutput } from '../chain/chain-api';
import type { Database, Transaction } from '../db/database';
import { deposits, orders, type DepositRow, type OrderRow } from '../db/schema';

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
 * Sell orders whose deposit address is watched: open ones, and expired or cancelled ones whose window
 * closed after `lateSince` (a late deposit is still credited).
 */
export async function findWatchedSellOrders(db: Database, lateSince: Date): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.type, 'sell'),
        isNotNull(orders.walletAddress),
        or(
          inArray(orders.status, ['pending', 'processing']),
          and(inArray(orders.status, ['expired', 'cancelled']), gt(orders.quoteExpiresAt, lateSince)),
        ),
      ),
    );
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
