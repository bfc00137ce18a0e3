import { and, asc, eq, isNotNull, isNull, lt } from 'drizzle-orm';
import { findDueSellPayouts } from '../due-sell-payouts.repository';
import type { Database, Transaction } from '../../db/database';
import { payouts, users, type PayoutRow } from '../../db/schema';

/**
 * The reads of instant payouts (docs/design.md, "Instant payouts"). Payout rows are written by
 * `payout-state.ts` only.
 */

/** Instant sells whose dollars are due, by the shared rule of due sell payouts. */
export async function findDueInstantSells(
  db: Database | Transaction,
  confirmationsRequired: number,
  limit = 50,
): Promise<string[]> {
  const due = await findDueSellPayouts(db, { rail: 'instant', confirmationsRequired }, { limit });
  return due.map((order) => order.id);
}

/** Every payout of the order (any state): the server sends only an order's first one by itself. */
export async function countPayoutsOfOrder(tx: Database | Transaction, orderId: string): Promise<number> {
  const rows = await tx
    .select({ id: payouts.id })
    .from(payouts)
    .where(and(eq(payouts.orderId, orderId), eq(payouts.purpose, 'payout')));
  return rows.length;
}

/**
 * The bank's payouts in flight: with their transfer recorded (to read back from the bank), or claimed
 * before `unrecordedBefore` with none recorded (the sender stopped between "sent" and "recorded").
 */
export async function findInstantPayoutsInFlight(
  db: Database,
  { recorded, unrecordedBefore }: { recorded: boolean; unrecordedBefore: Date },
  limit = 100,
): Promise<PayoutRow[]> {
  return db
    .select()
    .from(payouts)
    .where(
      and(
        eq(payouts.sender, 'bank-api'),
        eq(payouts.state, 'submitted'),
        recorded
          ? isNotNull(payouts.reference)
          : and(isNull(payouts.reference), lt(payouts.createdAt, unrecordedBefore)),
      ),
    )
    .orderBy(asc(payouts.createdAt))
    .limit(limit);
}

export async function lockPayout(tx: Transaction, payoutId: string): Promise<PayoutRow | undefined> {
  const [row] = await tx.select().from(payouts).where(eq(payouts.id, payoutId)).for('update');
  return row;
}

export async function findPayoutById(
  db: Database | Transaction,
  payoutId: string,
): Promise<PayoutRow | undefined> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, payoutId));
  return row;
}

export async function findEmailOf(tx: Transaction, userId: string): Promise<string | undefined> {
  const [row] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? undefined;
}

/** The instant payout that sent this bank transfer, if any. */
export async function findBankApiPayoutByReference(
  tx: Database | Transaction,
  reference: string,
): Promise<PayoutRow | undefined> {
  const [row] = await tx
    .select()
    .from(payouts)
    .where(and(eq(payouts.sender, 'bank-api'), eq(payouts.reference, reference)));
  return row;
}
