import { and, asc, desc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import {
  passkeyChallenges,
  passkeyRecoveries,
  passkeys,
  type PasskeyChallengeRow,
  type PasskeyRow,
} from '../db/schema';

export type { PasskeyChallengeRow, PasskeyRow };
type Db = Database | Transaction;

export async function listPasskeys(db: Db, userId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.createdAt));
}

export async function countPasskeys(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
  return row?.n ?? 0;
}

export async function findPasskeyByCredentialId(db: Db, credentialId: string): Promise<PasskeyRow | null> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId));
  return row ?? null;
}

/** One of the user's own passkeys; another user's id finds nothing. */
export async function findOwnPasskey(db: Db, userId: string, id: string): Promise<PasskeyRow | null> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)));
  return row ?? null;
}

export async function insertPasskey(db: Db, row: typeof passkeys.$inferInsert): Promise<PasskeyRow> {
  const [inserted] = await db.insert(passkeys).values(row).returning();
  return inserted!;
}

export async function renamePasskey(db: Db, userId: string, id: string, name: string) {
  const [row] = await db
    .update(passkeys)
    .set({ name })
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  return row ?? null;
}

export async function deletePasskey(db: Db, userId: string, id: string): Promise<PasskeyRow | null> {
  const [row] = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning();
  return row ?? null;
}

export async function deleteAllPasskeys(db: Db, userId: string): Promise<number> {
  const rows = await db.delete(passkeys).where(eq(passkeys.userId, userId)).returning({ id: passkeys.id });
  return rows.length;
}

/**
 * Records a use: the new signature counter only if it moves forward (or both stay 0, for
 * authenticators without one), in one statement, so two uses at once cannot both pass.
 */
export async function recordPasskeyUse(db: Db, id: string, newCount: number, at: Date): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ signCount: newCount, lastUsedAt: at })
    .where(
      and(
        eq(passkeys.id, id),
        or(lt(passkeys.signCount, newCount), and(eq(passkeys.signCount, 0), sql`${newCount} = 0`)),
      ),
    )
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

export async function insertChallenge(db: Db, row: typeof passkeyChallenges.$inferInsert): Promise<void> {
  await db.insert(passkeyChallenges).values(row);
}

export async function findChallenge(db: Db, challenge: string): Promise<PasskeyChallengeRow | null> {
  const [row] = await db.select().from(passkeyChallenges).where(eq(passkeyChallenges.challenge, challenge));
  return row ?? null;
}

/** Uses a challenge up, if it is still live: true for exactly one caller. */
export async function consumeChallenge(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(passkeyChallenges)
    .set({ consumedAt: at })
    .where(
      and(
        eq(passkeyChallenges.id, id),
        isNull(passkeyChallenges.consumedAt),
        gt(passkeyChallenges.expiresAt, at),
      ),
    )
    .returning({ id: passkeyChallenges.id });
  return rows.length > 0;
}

export async function insertRecovery(db: Db, row: typeof passkeyRecoveries.$inferInsert): Promise<void> {
  await db.insert(passkeyRecoveries).values(row);
}

/** The end of the payout hold of the user's latest recovery, if it is still running. */
export async function payoutHoldUntil(db: Db, userId: string, at: Date): Promise<Date | null> {
  const [row] = await db
    .select({ until: passkeyRecoveries.payoutsHeldUntil })
    .from(passkeyRecoveries)
    .where(and(eq(passkeyRecoveries.userId, userId), gt(passkeyRecoveries.payoutsHeldUntil, at)))
    .orderBy(desc(passkeyRecoveries.payoutsHeldUntil))
    .limit(1);
  return row?.until ?? null;
}
