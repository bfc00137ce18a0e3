import { desc, eq, ilike, inArray, or, sum, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import {
  kycRecords,
  orders,
  referralRewards,
  users,
  type KycRecordRow,
  type OrderRow,
  type UserRow,
} from '../db/schema';
import { idStartsWith, isUuid, quotedId } from '../http/ids';
import { forgetCachedSessions } from '../auth/sessions';

export type ReferralRewardRow = typeof referralRewards.$inferSelect;

const escapeLike = (text: string) => text.replace(/[%_\\]/g, '\\$&');

/**
 * Customers whose e-mail or phone contains `term`, or whose id or short number it quotes, or who placed
 * the order it quotes; newest first; all when blank.
 */
export async function searchUsers(db: Database, term: string, limit: number): Promise<UserRow[]> {
  let where: SQL | undefined;
  if (term) {
    const like = `%${escapeLike(term)}%`;
    const id = quotedId(term);
    where = or(
      ilike(users.email, like),
      ilike(users.phoneNumber, like),
      id ? idStartsWith(users.id, id) : undefined,
      id
        ? inArray(
            users.id,
            db.select({ userId: orders.userId }).from(orders).where(idStartsWith(orders.id, id)),
          )
        : undefined,
    );
  }
  return db.select().from(users).where(where).orderBy(desc(users.createdAt)).limit(limit);
}

export async function findUser(db: Database, id: string): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user ?? null;
}

/** The account as it is now, locked until the caller's transaction ends (see `lockOrder`). */
export async function lockUser(tx: Transaction, id: string): Promise<UserRow | null> {
  if (!isUuid(id)) return null;
  const [user] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return user ?? null;
}

export async function setUserDisabledAt(tx: Transaction, id: string, disabledAt: Date | null): Promise<void> {
  await tx.update(users).set({ disabledAt, updatedAt: new Date() }).where(eq(users.id, id));
  forgetCachedSessions(id);
}

export async function findUserKyc(db: Database, userId: string): Promise<KycRecordRow | null> {
  const [kyc] = await db.select().from(kycRecords).where(eq(kycRecords.userId, userId));
  return kyc ?? null;
}

const CUSTOMER_ORDERS_SHOWN = 200;

export async function findUserOrders(db: Database, userId: string): Promise<OrderRow[]> {
  return db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt))
    .limit(CUSTOMER_ORDERS_SHOWN);
}

/** The rewards this customer earned as a referrer, newest first, and their sum in cents. */
export async function findReferralRewardsEarned(
  db: Database,
  referrerUserId: string,
): Promise<{ rewards: ReferralRewardRow[]; totalCents: bigint }> {
  const rewards = await db
    .select()
    .from(referralRewards)
    .where(eq(referralRewards.referrerUserId, referrerUserId))
    .orderBy(desc(referralRewards.createdAt));
  const [total] = await db
    .select({ sum: sum(referralRewards.rewardCents) })
    .from(referralRewards)
    .where(eq(referralRewards.referrerUserId, referrerUserId));
  return { rewards, totalCents: BigInt(total?.sum ?? '0') };
}
