import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { adminMfa, mfaChallenges } from '../db/schema';

export type AdminMfaRow = typeof adminMfa.$inferSelect;

export async function findAdminMfa(db: Database, userId: string): Promise<AdminMfaRow | null> {
  const [row] = await db.select().from(adminMfa).where(eq(adminMfa.userId, userId));
  return row ?? null;
}

/** Starts (or restarts) an enrolment that has not been confirmed yet; an enrolled secret is kept. */
export async function savePendingSecret(db: Database, userId: string, sealed: string): Promise<boolean> {
  const rows = await db
    .insert(adminMfa)
    .values({ userId, secretEncrypted: sealed })
    .onConflictDoUpdate({
      target: adminMfa.userId,
      set: { secretEncrypted: sealed, lastStep: null, updatedAt: new Date() },
      setWhere: isNull(adminMfa.enrolledAt),
    })
    .returning({ userId: adminMfa.userId });
  return rows.length > 0;
}

/**
 * Records `step` as used, only if it is newer than the last used one (in one statement, so two
 * simultaneous uses of a code cannot both pass); `enrol` also confirms the enrolment.
 */
export async function useStep(
  db: Database | Transaction,
  userId: string,
  step: number,
  enrol: boolean,
): Promise<boolean> {
  const rows = await db
    .update(adminMfa)
    .set({
      lastStep: step,
      updatedAt: new Date(),
      ...(enrol ? { enrolledAt: new Date() } : {}),
    })
    .where(
      and(
        eq(adminMfa.userId, userId),
        or(isNull(adminMfa.lastStep), lt(adminMfa.lastStep, step)),
        enrol ? isNull(adminMfa.enrolledAt) : sql`${adminMfa.enrolledAt} is not null`,
      ),
    )
    .returning({ userId: adminMfa.userId });
  return rows.length > 0;
}

export async function createChallenge(
  db: Database,
  userId: string,
  tokenHash: string,
  expiresAt: Date,
): Promise<void> {
  await db.insert(mfaChallenges).values({ userId, tokenHash, expiresAt });
}

/** Counts a try on a live challenge; null if it is unknown, used, expired or out of tries. */
export async function countChallengeTry(
  db: Database,
  tokenHash: string,
  maxAttempts: number,
  now: Date,
): Promise<{ id: string; userId: string } | null> {
  const [row] = await db
    .update(mfaChallenges)
    .set({ attempts: sql`${mfaChallenges.attempts} + 1` })
    .where(
      and(
        eq(mfaChallenges.tokenHash, tokenHash),
        isNull(mfaChallenges.consumedAt),
        gt(mfaChallenges.expiresAt, now),
        lt(mfaChallenges.attempts, maxAttempts),
      ),
    )
    .returning({ id: mfaChallenges.id, userId: mfaChallenges.userId });
  return row ?? null;
}

/** A live challenge (not used, not expired, tries left), read without counting a try. */
export async function findLiveChallenge(
  db: Database,
  tokenHash: string,
  maxAttempts: number,
  now: Date,
): Promise<{ id: string; userId: string } | null> {
  const [row] = await db
    .select({ id: mfaChallenges.id, userId: mfaChallenges.userId })
    .from(mfaChallenges)
    .where(
      and(
        eq(mfaChallenges.tokenHash, tokenHash),
        isNull(mfaChallenges.consumedAt),
        gt(mfaChallenges.expiresAt, now),
        lt(mfaChallenges.attempts, maxAttempts),
      ),
    );
  return row ?? null;
}

export async function consumeChallenge(db: Database, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(mfaChallenges)
    .set({ consumedAt: now })
    .where(and(eq(mfaChallenges.id, id), isNull(mfaChallenges.consumedAt)))
    .returning({ id: mfaChallenges.id });
  return rows.length > 0;
}
