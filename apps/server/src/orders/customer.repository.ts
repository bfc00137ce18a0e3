import { eq } from 'drizzle-orm';
import type { Database } from '../db/database';
import { userSettings, type UserSettingsRow } from '../db/schema';

/** What placing an order reads about the customer (their KYC verdict is read through kyc.repository). */

/** The customer's own settings (bank, Zelle, notification toggles), or null before they saved any. */
export async function findCustomerSettings(db: Database, userId: string): Promise<UserSettingsRow | null> {
  const [own] = await db.select().from(userSettings).where(eq(userSettings.userId, userId));
  return own ?? null;
}
