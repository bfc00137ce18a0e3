import { eq, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/database';
import { sanctionedAddresses, sanctionsListState } from '../../db/schema';

export type SanctionsListStatus = typeof sanctionsListState.$inferSelect;

/** How many addresses one insert statement carries (the real list has a few hundred in all). */
const INSERT_BATCH = 500;

/** Whether this screening key (see `screeningKey`) is on the list in force. */
export async function isAddressListed(db: Database | Transaction, key: string): Promise<boolean> {
  const rows = await db
    .select({ address: sanctionedAddresses.address })
    .from(sanctionedAddresses)
    .where(eq(sanctionedAddresses.address, key))
    .limit(1);
  return rows.length > 0;
}

/** Which of these screening keys are on the list in force. */
export async function findListedAddresses(db: Database | Transaction, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .select({ address: sanctionedAddresses.address })
    .from(sanctionedAddresses)
    .where(sql`${sanctionedAddresses.address} in ${keys}`);
  return rows.map((row) => row.address);
}

/** The list in force and the last refresh attempt; null before the first attempt. */
export async function findSanctionsListStatus(db: Database): Promise<SanctionsListStatus | null> {
  const [row] = await db.select().from(sanctionsListState).where(eq(sanctionsListState.id, 1));
  return row ?? null;
}

/**
 * Replaces the list in force by a new one, in one transaction: every process screens against the old
 * list or the new one, never a half-written mix.
 */
export async function replaceSanctionedAddresses(
  db: Database,
  list: { version: string; source: string; keys: string[] },
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    // One refresh at a time: the state row is the lock (created if missing).
    await tx.insert(sanctionsListState).values({ id: 1 }).onConflictDoNothing();
    await tx.select().from(sanctionsListState).where(eq(sanctionsListState.id, 1)).for('update');
    await tx.delete(sanctionedAddresses);
    for (let start = 0; start < list.keys.length; start += INSERT_BATCH) {
      const batch = list.keys.slice(start, start + INSERT_BATCH).map((address) => ({ address }));
      await tx.insert(sanctionedAddresses).values(batch).onConflictDoNothing();
    }
    await tx
      .update(sanctionsListState)
      .set({
        version: list.version,
        source: list.source,
        addressCount: list.keys.length,
        loadedAt: now,
        lastAttemptAt: now,
        lastError: null,
        lastErrorAt: null,
      })
      .where(eq(sanctionsListState.id, 1));
  });
}

/** A refresh failed: the list in force stays, and the failure is recorded for the alert. */
export async function recordSanctionsRefreshFailure(db: Database, error: string, now: Date): Promise<void> {
  await db
    .insert(sanctionsListState)
    .values({ id: 1, lastAttemptAt: now, lastError: error, lastErrorAt: now })
    .onConflictDoUpdate({
      target: sanctionsListState.id,
      set: { lastAttemptAt: now, lastError: error, lastErrorAt: now },
    });
}
