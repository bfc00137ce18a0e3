import { asc, eq } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { kycRecords, users, type KycRecordRow, type KycStatus } from '../db/schema';
import { isUuid } from '../http/ids';

/** A customer's identity verification with their e-mail, as the review desk shows it. */
export interface KycCaseWithEmail {
  record: KycRecordRow;
  email: string;
}

const CASES_SHOWN = 200;

/** The cases in one status, longest waiting first. */
export async function findKycCases(db: Database, status: KycStatus): Promise<KycCaseWithEmail[]> {
  return db
    .select({ record: kycRecords, email: users.email })
    .from(kycRecords)
    .innerJoin(users, eq(users.id, kycRecords.userId))
    .where(eq(kycRecords.status, status))
    .orderBy(asc(kycRecords.submittedAt))
    .limit(CASES_SHOWN);
}

export async function findKycCase(db: Database, userId: string): Promise<KycCaseWithEmail | null> {
  if (!isUuid(userId)) return null;
  const [row] = await db
    .select({ record: kycRecords, email: users.email })
    .from(kycRecords)
    .innerJoin(users, eq(users.id, kycRecords.userId))
    .where(eq(kycRecords.userId, userId));
  return row ?? null;
}

/** The customer's record as it is now, locked until the caller's transaction ends (see `lockOrder`). */
export async function lockKycRecord(tx: Transaction, userId: string): Promise<KycRecordRow | null> {
  if (!isUuid(userId)) return null;
  const [record] = await tx.select().from(kycRecords).where(eq(kycRecords.userId, userId)).for('update');
  return record ?? null;
}
