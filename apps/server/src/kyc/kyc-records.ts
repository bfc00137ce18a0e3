import type { Database, Transaction } from '../db/database';
import type { KycRecordRow, KycStatus } from '../db/schema';
import { writeOutbox, type OutboxEntry } from '../outbox/outbox.repository';
import type { OutboxService } from '../outbox/outbox.service';
import type { KycProvider } from './kyc-provider';
import { findCustomerEmail, lockKycRecord, saveKycRecord, type KycRecordChange } from './kyc.repository';

/**
 * How a customer's KYC record changes: under its lock, with its notice written into the outbox in the
 * same transaction (docs/design.md, "Notices and webhooks"), announced once committed.
 */

/**
 * In the transaction of a change: the customer's open pages are told of it (realtime `kyc-updated`,
 * through the outbox, so it is delivered once the change commits, and retried). A decision that
 * changes the status (approved, or rejected with its reason) is also e-mailed to the customer.
 */
export async function recordNotice(
  tx: Transaction,
  record: Pick<KycRecordRow, 'id' | 'userId' | 'status' | 'updatedAt'> & { reviewNote?: string | null },
  previousStatus: KycStatus | null = null,
): Promise<void> {
  const eventKey = `kyc:${record.id}:${record.updatedAt.getTime()}:${record.status}`;
  const entries: OutboxEntry[] = [
    {
      eventKey,
      channel: 'realtime',
      recipient: record.userId,
      userId: record.userId,
      payload: { type: 'kyc-updated', payload: { status: record.status } },
    },
  ];
  if (record.status !== 'YELLOW' && record.status !== previousStatus) {
    const email = await findCustomerEmail(tx, record.userId);
    if (email) {
      entries.push({
        eventKey,
        channel: 'email',
        recipient: email,
        userId: record.userId,
        payload: decisionEmail(record.status, record.reviewNote ?? null),
      });
    }
  }
  await writeOutbox(tx, entries);
}

export interface KycRecordsDeps {
  db: Database;
  provider: Pick<KycProvider, 'kind'>;
  outbox: Pick<OutboxService, 'deliverForUser'>;
}

export function createKycRecords({ db, provider, outbox }: KycRecordsDeps) {
  /** Called after the change is committed: delivers its notice at once (the job retries a failure). */
  async function announce(record: Pick<KycRecordRow, 'userId'>): Promise<void> {
    await outbox.deliverForUser(record.userId);
  }

  /** Saves a change of the customer's record with its notice, then announces it. */
  async function saveAndAnnounce(
    userId: string,
    created: Parameters<typeof saveKycRecord>[2],
    change: Parameters<typeof saveKycRecord>[3],
  ): Promise<KycRecordRow> {
    const saved = await db.transaction(async (tx) => {
      const previous = await lockKycRecord(tx, userId);
      const saved = await saveKycRecord(tx, userId, created, change);
      await recordNotice(tx, saved, previous?.status ?? null);
      return saved;
    });
    await announce(saved);
    return saved;
  }

  /**
   * A decision inside the caller's transaction (an admin's, so the decision, its audit entry and its
   * notice commit together). The caller announces it once committed.
   */
  async function decideInTransaction(
    tx: Transaction,
    userId: string,
    status: KycStatus,
    decidedBy: string,
    note: string | null,
    /**
     * What the provider's event adds (its applicant, when it was created, where the customer lives), or
     * the demo helper's own values (their name, and when the decision counts as made).
     */
    extra: Pick<
      KycRecordChange,
      'applicantId' | 'providerEventAt' | 'residenceState' | 'legalName' | 'decidedAt'
    > = {},
  ): Promise<KycRecordRow> {
    const change = {
      status,
      decidedBy,
      decidedAt: new Date(),
      reviewNote: note,
      updatedAt: new Date(),
      ...extra,
    };
    // Locked again (callers may hold it already): the e-mail goes only when the status changes.
    const previous = await lockKycRecord(tx, userId);
    const decided = await saveKycRecord(
      tx,
      userId,
      { provider: provider.kind, status, submittedAt: new Date() },
      change,
    );
    await recordNotice(tx, decided, previous?.status ?? null);
    return decided;
  }

  /** A decision by the demo helper or a verified webhook, announced at once. Creates the record if none. */
  async function decide(
    userId: string,
    status: KycStatus,
    decidedBy: string,
    note: string | null = null,
    extra: Parameters<typeof decideInTransaction>[5] = {},
  ): Promise<KycRecordRow> {
    const decided = await db.transaction((tx) =>
      decideInTransaction(tx, userId, status, decidedBy, note, extra),
    );
    await announce(decided);
    return decided;
  }

  return { announce, saveAndAnnounce, decideInTransaction, decide };
}

export type KycRecords = ReturnType<typeof createKycRecords>;

/** The e-mail of a decision: a rejection carries its reason in full and says how to try again. */
export function decisionEmail(
  status: Exclude<KycStatus, 'YELLOW'>,
  reason: string | null,
): { subject: string; text: string } {
  if (status === 'GREEN') {
    return {
      subject: 'Your identity is verified',
      text: 'Your OffZero identity verification was approved. You can now buy and sell bitcoin.',
    };
  }
  const why = reason?.trim();
  return {
    subject: 'Your identity verification was not approved',
    text:
      (why
        ? `Your OffZero identity verification was not approved: ${why}`
        : 'Your OffZero identity verification was not approved.') +
      '\n\nYou can submit your verification again from your dashboard.',
  };
}
