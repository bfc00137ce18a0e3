import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import {
  kycRecords,
  sanctionedAddresses,
  users,
  userSettings,
  type KycRecordRow,
  type UserSettingsRow,
} from '../db/schema';
import { screeningKey } from '../compliance/sanctions/sanctions-screening';

/** What placing an order reads about the customer (their KYC verdict is read through kyc.repository). */

/** The customer's own settings (bank, Zelle, notification toggles), or null before they saved any. */
export async function findCustomerSettings(db: Database, userId: string): Promise<UserSettingsRow | null> {
  const [own] = await db.select().from(userSettings).where(eq(userSettings.userId, userId));
  return own ?? null;
}

/**
 * In one statement, the two answers a buy's checks read from the database before pricing: the
 * customer's KYC verdict (`findKycVerdict`: null without a record) and whether the payout address
 * they typed is on the sanctions list (`isSanctionedAddress`; false without an address). The checks
 * themselves stay in the spec's order: this only reads.
 */
export async function findBuyerVerdicts(
  db: Database,
  userId: string,
  payoutAddress: string | null,
): Promise<{ kyc: Pick<KycRecordRow, 'status' | 'reviewNote'> | null; addressListed: boolean }> {
  const listed =
    payoutAddress === null
      ? sql<boolean>`false`
      : sql<boolean>`exists (${db
          .select({ address: sanctionedAddresses.address })
          .from(sanctionedAddresses)
          .where(eq(sanctionedAddresses.address, screeningKey(payoutAddress)))})`;
  const [row] = await db
    .select({ status: kycRecords.status, reviewNote: kycRecords.reviewNote, addressListed: listed })
    .from(users)
    .leftJoin(kycRecords, eq(kycRecords.userId, users.id))
    .where(eq(users.id, userId));
  return {
    kyc: row?.status ? { status: row.status, reviewNote: row.reviewNote } : null,
    addressListed: row?.addressListed === true,
  };
}
