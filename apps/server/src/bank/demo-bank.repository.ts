import { and, asc, eq, isNotNull, lte, or } from 'drizzle-orm';
import type { Database } from '../db/database';
import { demoBankAccountNumbers, demoBankState, demoBankTransfers } from '../db/schema';

export type DemoBankAccountNumberRow = typeof demoBankAccountNumbers.$inferSelect;
export type DemoBankTransferRow = typeof demoBankTransfers.$inferSelect;
export type NewDemoBankTransfer = typeof demoBankTransfers.$inferInsert;

/**
 * The demo bank's storage. Every change of a transfer is one conditional UPDATE, so two processes
 * acting on one transfer at once (the settle job and a return) leave exactly one winner.
 */

/** Inserts an account number unless its idempotency key or number exists; null when it did not insert. */
export async function insertDemoAccountNumber(
  db: Database,
  row: typeof demoBankAccountNumbers.$inferInsert,
): Promise<DemoBankAccountNumberRow | null> {
  const [inserted] = await db.insert(demoBankAccountNumbers).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

export async function findDemoAccountNumberByKey(
  db: Database,
  idempotencyKey: string,
): Promise<DemoBankAccountNumberRow | undefined> {
  const [row] = await db
    .select()
    .from(demoBankAccountNumbers)
    .where(eq(demoBankAccountNumbers.idempotencyKey, idempotencyKey));
  return row;
}

export async function findDemoAccountNumber(
  db: Database,
  by: { id: string } | { accountNumber: string },
): Promise<DemoBankAccountNumberRow | undefined> {
  const [row] = await db
    .select()
    .from(demoBankAccountNumbers)
    .where(
      'id' in by
        ? eq(demoBankAccountNumbers.id, by.id)
        : eq(demoBankAccountNumbers.accountNumber, by.accountNumber),
    );
  return row;
}

/** Inserts a transfer; null when its idempotency key was taken. */
export async function insertDemoTransfer(
  db: Database,
  row: NewDemoBankTransfer,
): Promise<DemoBankTransferRow | null> {
  const [inserted] = await db.insert(demoBankTransfers).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

export async function findDemoTransfer(
  db: Database,
  by: { id: string } | { idempotencyKey: string },
): Promise<DemoBankTransferRow | undefined> {
  const [row] = await db
    .select()
    .from(demoBankTransfers)
    .where(
      'id' in by ? eq(demoBankTransfers.id, by.id) : eq(demoBankTransfers.idempotencyKey, by.idempotencyKey),
    );
  return row;
}

/** Every transfer to, from or naming an account number, oldest first. */
export async function listDemoTransfersOf(
  db: Database,
  accountNumber: string,
  accountNumberId: string | null,
): Promise<DemoBankTransferRow[]> {
  return db
    .select()
    .from(demoBankTransfers)
    .where(
      accountNumberId
        ? or(
            eq(demoBankTransfers.counterpartyAccountNumber, accountNumber),
            eq(demoBankTransfers.accountNumberId, accountNumberId),
          )
        : eq(demoBankTransfers.counterpartyAccountNumber, accountNumber),
    )
    .orderBy(asc(demoBankTransfers.createdAt), asc(demoBankTransfers.id));
}

/** Settles a transfer still on its way (`pending` or `submitted`); undefined when it is not. */
export async function settleDemoTransfer(
  db: Database,
  id: string,
  now: Date,
): Promise<DemoBankTransferRow | undefined> {
  const [row] = await db
    .update(demoBankTransfers)
    .set({ status: 'settled', settledAt: now, settleAt: null, updatedAt: now })
    .where(
      and(
        eq(demoBankTransfers.id, id),
        or(eq(demoBankTransfers.status, 'pending'), eq(demoBankTransfers.status, 'submitted')),
      ),
    )
    .returning();
  return row;
}

/**
 * Returns a transfer with a return code: one on its way or settled (money that moved can come back);
 * undefined when it was rejected or returned already.
 */
export async function returnDemoTransfer(
  db: Database,
  id: string,
  returnCode: string,
  now: Date,
): Promise<DemoBankTransferRow | undefined> {
  const [row] = await db
    .update(demoBankTransfers)
    .set({ status: 'returned', returnCode, settleAt: null, updatedAt: now })
    .where(
      and(
        eq(demoBankTransfers.id, id),
        or(
          eq(demoBankTransfers.status, 'pending'),
          eq(demoBankTransfers.status, 'submitted'),
          eq(demoBankTransfers.status, 'settled'),
        ),
      ),
    )
    .returning();
  return row;
}

/** Instant transfers whose settling time has come, oldest first. */
export async function findDueDemoTransfers(db: Database, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: demoBankTransfers.id })
    .from(demoBankTransfers)
    .where(
      and(
        eq(demoBankTransfers.status, 'submitted'),
        isNotNull(demoBankTransfers.settleAt),
        lte(demoBankTransfers.settleAt, now),
      ),
    )
    .orderBy(asc(demoBankTransfers.settleAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** The demo bank's webhook secret: the stored one, or this candidate when none is stored yet. */
export async function demoBankWebhookSecret(db: Database, candidate: string): Promise<string> {
  await db.insert(demoBankState).values({ id: 1, webhookSecret: candidate }).onConflictDoNothing();
  const [row] = await db.select().from(demoBankState).where(eq(demoBankState.id, 1));
  if (!row) throw new Error('the demo bank state row is missing');
  return row.webhookSecret;
}
