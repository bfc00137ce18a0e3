import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { users, userSettings, type UserSettingsRow } from '../db/schema';
import { forgetCachedSessions } from '../auth/sessions';

export type UserSettingsChange = Partial<Omit<typeof userSettings.$inferInsert, 'userId' | 'updatedAt'>>;

export async function findUserSettings(db: Database, userId: string): Promise<UserSettingsRow | null> {
  const [row] = await db.select().from(userSettings).where(eq(userSettings.userId, userId));
  return row ?? null;
}

/** Applies `change` to the customer's settings, creating their row (with the defaults) on first save. */
export async function saveUserSettings(
  db: Database | Transaction,
  userId: string,
  change: UserSettingsChange,
): Promise<void> {
  await db
    .insert(userSettings)
    .values({ userId, ...change })
    .onConflictDoUpdate({ target: userSettings.userId, set: { ...change, updatedAt: new Date() } });
}

/** The customer's referral code, or null before they generate one. */
export async function findReferralCode(db: Database, userId: string): Promise<string | null> {
  const [user] = await db
    .select({ referralCode: users.referralCode })
    .from(users)
    .where(eq(users.id, userId));
  return user?.referralCode ?? null;
}

/** Sets the customer's referral code (the caller has made sure no one else holds it in any case). */
export async function setReferralCode(
  db: Database | Transaction,
  userId: string,
  code: string,
): Promise<void> {
  await db.update(users).set({ referralCode: code, updatedAt: new Date() }).where(eq(users.id, userId));
  forgetCachedSessions(userId);
}
