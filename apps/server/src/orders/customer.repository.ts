import { eq } from 'drizzle-orm';
import type { Database } from '../db/database';
import { kycRecords, userSettings, type KycRecordRow, type UserSettingsRow } from '../db/schema';

/** What placing an order reads about the customer: their KYC decision and their payout details. */

export async function findKycStatus(db: Database, userId: string): Promise<KycRecordRow['status'] | null> {
  const [kyc] = await db
    .select({ status: kycRecords.status })
    .from(kycRecords)
    .where(eq(kycRecords.userId, userId));
  return kyc?.status ?? null;
}

/** The customer's own settings (bank, Zelle, notification toggles), or null before they saved any. */
export async function findCustomerSettings(db: Database, userId: string): Promise<UserSettingsRow | null> {
  const [own] = await db.select().from(userSettings).where(eq(userSettings.userId, userId));
  return own ?? null;
}
