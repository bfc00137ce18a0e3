import { eq, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
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

/** What a buy's checks read from the database before pricing (the checks stay in the spec's order). */
export interface BuyerVerdicts {
  /** The customer's KYC verdict (`findKycVerdict`): null without a record. */
  kyc: Pick<KycRecordRow, 'status' | 'reviewNote'> | null;
  /** Whether the payout address they typed is on the sanctions list (false without an address). */
  addressListed: boolean;
}

/**
 * The columns of a statement on `users` that read the buyer's verdicts (it must left-join the KYC
 * record, `joinKycRecord`): so they can be read alone, or together with the save's lock.
 */
export function buyerVerdictColumns(
  db: Database | Transaction,
  /** The payout address's `screeningKey` (or where a statement built once takes it); null for none. */
  addressKey: string | SQL | null,
) {
  const addressListed =
    addressKey === null
      ? sql<boolean>`false`
      : sql<boolean>`exists (${db
          .select({ address: sanctionedAddresses.address })
          .from(sanctionedAddresses)
          .where(eq(sanctionedAddresses.address, addressKey))})`;
  return { kycStatus: kycRecords.status, kycReviewNote: kycRecords.reviewNote, addressListed };
}

export const joinKycRecord = eq(kycRecords.userId, users.id);

export function buyerVerdictsOf(
  row:
    | { kycStatus: KycRecordRow['status'] | null; kycReviewNote: string | null; addressListed: boolean }
    | undefined,
): BuyerVerdicts {
  return {
    kyc: row?.kycStatus ? { status: row.kycStatus, reviewNote: row.kycReviewNote } : null,
    addressListed: row?.addressListed === true,
  };
}

/** The buyer's verdicts in one statement (`BuyerVerdicts`). */
export async function findBuyerVerdicts(
  db: Database,
  userId: string,
  payoutAddress: string | null,
): Promise<BuyerVerdicts> {
  const [row] = await db
    .select(buyerVerdictColumns(db, payoutAddress === null ? null : screeningKey(payoutAddress)))
    .from(users)
    .leftJoin(kycRecords, joinKycRecord)
    .where(eq(users.id, userId));
  return buyerVerdictsOf(row);
}
