import { desc, eq, sql, sum } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { referralRewards, users } from '../db/schema';

export type ReferralRewardRow = typeof referralRewards.$inferSelect;

const HISTORY_LENGTH = 500;

/** The sum of every reward `referrerUserId` earned, in cents. */
export async function sumRewardsEarned(db: Database, referrerUserId: string): Promise<bigint> {
  const [row] = await db
    .select({ total: sum(referralRewards.rewardCents) })
    .from(referralRewards)
    .where(eq(referralRewards.referrerUserId, referrerUserId));
  return BigInt(row?.total ?? '0');
}

/** The rewards `referrerUserId` earned, newest first. */
export async function findRewardsEarned(db: Database, referrerUserId: string): Promise<ReferralRewardRow[]> {
  return db
    .select()
    .from(referralRewards)
    .where(eq(referralRewards.referrerUserId, referrerUserId))
    .orderBy(desc(referralRewards.createdAt))
    .limit(HISTORY_LENGTH);
}

/**
 * Referral codes are one code whatever their case: people retype a shared code as they read it, and it
 * must still name the customer who shared it. Codes are letters, digits, - and _ only, so their lower
 * case is the same in JavaScript and in the database.
 */
const canonicalReferralCode = (code: string) => code.toLowerCase();

/** Serialises, until the transaction ends, everyone claiming this code in any case. */
export async function lockReferralCode(tx: Transaction, code: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`referral-code:${canonicalReferralCode(code)}`}))`,
  );
}

/**
 * The customers holding this code in any case, the one with this very spelling first; at most two.
 * (Two only where codes differing in case alone were saved before codes were told apart without case.)
 */
export async function findReferralCodeHolders(
  db: Database | Transaction,
  code: string,
): Promise<{ id: string; referralCode: string | null }[]> {
  return db
    .select({ id: users.id, referralCode: users.referralCode })
    .from(users)
    .where(sql`lower(${users.referralCode}) = ${canonicalReferralCode(code)}`)
    .orderBy(sql`${users.referralCode} = ${code} desc`)
    .limit(2);
}
