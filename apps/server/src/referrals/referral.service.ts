import type { Database } from '../db/database';
import { findRewardsEarned, sumRewardsEarned, type ReferralRewardRow } from './referral.repository';

/** What a customer earned by referring others (rewards are credited when a referred order completes). */
export function createReferralService(db: Database) {
  return {
    /** The customer's total earned, in cents. */
    totalEarnedCents: (referrerUserId: string): Promise<bigint> => sumRewardsEarned(db, referrerUserId),
    /** Each reward the customer earned, newest first. */
    history: (referrerUserId: string): Promise<ReferralRewardRow[]> => findRewardsEarned(db, referrerUserId),
  };
}

export type ReferralService = ReturnType<typeof createReferralService>;
