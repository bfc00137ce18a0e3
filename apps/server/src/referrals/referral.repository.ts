import { desc, eq, sum } from 'drizzle-orm';
import type { Database } from '../db/database';
import { referralRewards } from '../db/schema';

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
