import { and, eq, lt } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { kycRecords, users, type KycRecordRow } from '../db/schema';
import { isUuid } from '../http/ids';

type NewKycRecord = typeof kycRecords.$inferInsert;
/** The columns a save sets on an existing record (everything but who it belongs to). */
export type KycRecordChange = Partial<Omit<NewKycRecord, 'id' | 'userId' | 'createdAt'>>;

export async function findKycRecord(
  db: Database | Transaction,
  userId: string,
): Promise<KycRecordRow | null> {
  const [record] = await db.select().from(kycRecords).where(eq(kycRecords.userId, userId));
  return record ?? null;
}

/** The customer's status and the reviewer's note (the reason of a rejection), or null with no record. */
export async function findKycVerdict(
  db: Database | Transaction,
  userId: string,
): Promise<Pick<KycRecordRow, 'status' | 'reviewNote'> | null> {
  const [record] = await db
    .select({ status: kycRecords.status, reviewNote: kycRecords.reviewNote })
    .from(kycRecords)
    .where(eq(kycRecords.userId, userId));
  return record ?? null;
}

/** Where the customer's e-mail about a decision goes, or null when the account is gone. */
export async function findCustomerEmail(db: Database | Transaction, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

/** The customer's record, locked until the transaction ends (null when they have none yet). */
export async function lockKycRecord(tx: Transaction, userId: string): Promise<KycRecordRow | null> {
  const [record] = await tx.select().from(kycRecords).where(eq(kycRecords.userId, userId)).for('update');
  return record ?? null;
}

/**
 * Creates the customer's record with `created` plus `change`, or applies `change` to the one they
 * have: one record per customer, whoever writes first.
 */
export async function saveKycRecord(
  db: Database | Transaction,
  userId: string,
  created: Pick<NewKycRecord, 'provider' | 'status'> & KycRecordChange,
  change: KycRecordChange,
): Promise<KycRecordRow> {
  const [saved] = await db
    .insert(kycRecords)
    .values({ userId, ...created, ...change })
    .onConflictDoUpdate({ target: kycRecords.userId, set: change })
    .returning();
  if (!saved) throw new Error('kyc upsert returned nothing');
  return saved;
}

/** Approves the local form's submissions waiting since before `submittedBefore`; returns them. */
export async function approveLocalSubmissionsBefore(
  db: Database | Transaction,
  submittedBefore: Date,
  decidedBy: string,
): Promise<Pick<KycRecordRow, 'id' | 'userId' | 'status' | 'updatedAt'>[]> {
  const approved = await db
    .update(kycRecords)
    .set({ status: 'GREEN', decidedBy, decidedAt: new Date(), updatedAt: new Date() })
    .where(
      and(
        eq(kycRecords.provider, 'local'),
        eq(kycRecords.status, 'YELLOW'),
        lt(kycRecords.submittedAt, submittedBefore),
      ),
    )
    .returning({
      id: kycRecords.id,
      userId: kycRecords.userId,
      status: kycRecords.status,
      updatedAt: kycRecords.updatedAt,
    });
  return approved;
}

export async function userExists(db: Database | Transaction, userId: string): Promise<boolean> {
  if (!isUuid(userId)) return false;
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return user !== undefined;
}
