import { and, eq, exists, gte, not, sql } from 'drizzle-orm';
import { findDueSellPayouts } from '../due-sell-payouts.repository';
import type { Database, Transaction } from '../../db/database';
import {
  achFileEntries,
  achFiles,
  deposits,
  orderEvents,
  orders,
  type AchFileRow,
  type OrderRow,
  type PayoutRow,
} from '../../db/schema';

/**
 * The stored ACH files and the payouts due in one (docs/design.md, "ACH file"). Payout rows are
 * written by `payout-state.ts` only; this keeps the file, its entries and the timeline's line.
 */

export async function findAchFile(db: Database | Transaction, day: string): Promise<AchFileRow | undefined> {
  const [file] = await db.select().from(achFiles).where(eq(achFiles.businessDay, day));
  return file;
}

/**
 * Takes the day for this transaction: the first caller inserts the row (filled in before it commits);
 * a second one waits on the key and gets false once the first committed, then reads the stored file.
 */
export async function claimAchFileDay(
  tx: Transaction,
  values: Pick<AchFileRow, 'businessDay' | 'effectiveEntryDate' | 'createdBy'>,
): Promise<boolean> {
  const inserted = await tx
    .insert(achFiles)
    .values({ ...values, contents: '', entryCount: 0, totalCents: 0n })
    .onConflictDoNothing()
    .returning({ day: achFiles.businessDay });
  return inserted.length > 0;
}

export async function saveAchFile(
  tx: Transaction,
  day: string,
  file: Pick<AchFileRow, 'contents' | 'entryCount' | 'totalCents'>,
): Promise<AchFileRow> {
  const [saved] = await tx.update(achFiles).set(file).where(eq(achFiles.businessDay, day)).returning();
  if (!saved) throw new Error(`the ACH file of ${day} was not claimed`);
  return saved;
}

/** A day that turned out to have nothing due keeps no file: a later download of it may have some. */
export async function releaseAchFileDay(tx: Transaction, day: string): Promise<void> {
  await tx.delete(achFiles).where(eq(achFiles.businessDay, day));
}

/**
 * The ACH sells whose dollars are due by `before` (the end of the file's day in New York): the shared
 * rule of due sell payouts, with every deposit seen before then. Read without locks; the caller
 * locks each order and checks it again.
 */
export async function findDueAchSells(
  db: Database | Transaction,
  { before, confirmationsRequired }: { before: Date; confirmationsRequired: number },
): Promise<OrderRow[]> {
  const depositOf = (...conditions: ReturnType<typeof eq>[]) =>
    db
      .select({ one: sql`1` })
      .from(deposits)
      .where(and(eq(deposits.orderId, orders.id), ...conditions));
  return findDueSellPayouts(
    db,
    { rail: 'ach', confirmationsRequired },
    {
      where: [
        exists(depositOf(eq(deposits.status, 'seen'))),
        not(exists(depositOf(gte(deposits.firstSeenAt, before)))),
      ],
    },
  );
}

/** One entry of the file: which payout it is, by trace number, and its line in the order's timeline. */
export async function recordAchFileEntry(
  tx: Transaction,
  entry: { day: string; order: OrderRow; payout: PayoutRow; traceNumber: string; amountCents: bigint },
): Promise<void> {
  await tx.insert(achFileEntries).values({
    payoutId: entry.payout.id,
    businessDay: entry.day,
    orderId: entry.order.id,
    traceNumber: entry.traceNumber,
    amountCents: entry.amountCents,
  });
  await tx.insert(orderEvents).values({
    orderId: entry.order.id,
    fromStatus: entry.order.status,
    toStatus: entry.order.status,
    actor: entry.payout.createdBy,
    reason: `dollars sent by ACH in the file of ${entry.day} (trace ${entry.traceNumber})`,
    details: {
      event: 'payout_sent',
      rail: 'ach',
      payoutId: entry.payout.id,
      achFileDay: entry.day,
      traceNumber: entry.traceNumber,
    },
  });
}
