import type { FastifyBaseLogger } from 'fastify';
import type { LocalKycForm } from '@offzero/shared/api/kyc';
import type { Database, Transaction } from '../db/database';
import type { KycRecordRow, KycStatus } from '../db/schema';
import { AppError } from '../http/errors';
import { writeOutbox, type OutboxEntry } from '../outbox/outbox.repository';
import type { OutboxService } from '../outbox/outbox.service';
import type { InboxService } from '../inbox/inbox.service';
import { KycProviderError, type KycProvider, type ProviderKycStatus } from './kyc-provider';
import {
  approveLocalSubmissionsBefore,
  findCustomerEmail,
  findKycRecord,
  lockKycRecord,
  saveKycRecord,
  userExists,
  type KycRecordChange,
} from './kyc.repository';
import { fromReview } from './sumsub-kyc-provider';

export interface KycDocument {
  bytes: Buffer;
  mimeType: string;
}

/** A provider's webhook whose signature the route verified. */
export interface KycWebhookDelivery {
  provider: KycProvider['kind'];
  /** The exact bytes received: a replay of the same bytes changes nothing. */
  rawBody: Buffer;
  /** The headers the signature check reads, kept so the stored delivery can be verified again. */
  headers: Record<string, string>;
}

/** The headers of a Sumsub webhook its signature check reads. */
export const SUMSUB_SIGNATURE_HEADERS = ['x-payload-digest', 'x-payload-digest-alg'] as const;

/** What a Sumsub webhook says: the customer it names (our user id) and the verdict, if any. */
export function readSumsubEvent(rawBody: Buffer): {
  userId: string | null;
  verdict: { status: KycStatus; note: string | null } | null;
  /** When Sumsub created the event (`createdAtMs`, UTC), to tell an older event from a newer one. */
  createdAt: Date | null;
} | null {
  let event: unknown;
  try {
    event = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  if (!event || typeof event !== 'object' || Array.isArray(event)) return null;
  const fields = event as Record<string, unknown>;
  const review = fields.reviewResult as { reviewAnswer?: unknown; moderationComment?: unknown } | undefined;
  return {
    userId: typeof fields.externalUserId === 'string' ? fields.externalUserId : null,
    verdict: fromReview(
      typeof fields.applicantId === 'string' ? fields.applicantId : null,
      fields.reviewStatus,
      review?.reviewAnswer,
      review?.moderationComment,
    ),
    createdAt: sumsubTime(fields.createdAtMs) ?? sumsubTime(fields.createdAt),
  };
}

/** Sumsub's event times: "2026-11-21 10:00:00.123" (UTC) or "2026-11-21 10:00:00+0000". */
function sumsubTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?)(Z|[+-]\d{2}:?\d{2})?$/.exec(
    value.trim(),
  );
  if (!match) return null;
  const zone = match[3] && match[3] !== 'Z' ? match[3].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2') : 'Z';
  const time = new Date(`${match[1]}T${match[2]}${zone}`);
  return Number.isNaN(time.getTime()) ? null : time;
}

/** What the inbox's job prepares before applying a Sumsub event: the event, and Sumsub's own answer. */
interface PreparedSumsubEvent {
  event: NonNullable<ReturnType<typeof readSumsubEvent>>;
  /** The applicant's status read back from Sumsub (null: nothing to decide there). */
  current: ProviderKycStatus | null;
}

const PROVIDER_UNREACHABLE = 'Identity verification is not reachable right now. Try again in a minute.';

/** Identity verification rules. The browser only ever asks; the provider or an admin decides. */
export function createKycService(deps: {
  db: Database;
  provider: KycProvider;
  /** Delivers, once a change is committed, the `kyc-updated` notice it wrote into the outbox. */
  outbox: Pick<OutboxService, 'deliverForUser'>;
  /** Where verified webhooks are stored before they are answered, and applied from. */
  inbox: Pick<InboxService, 'receive' | 'register'>;
  log: FastifyBaseLogger;
}) {
  const { db, provider } = deps;

  // A stored webhook is verified again and applied by the inbox's job, in the transaction that marks
  // it processed: its decision and notice commit with it, and it is never applied twice.
  // Events may arrive late and out of order: one older than the last applied for the customer changes
  // nothing, and what is applied is the applicant's status read back from Sumsub (before the
  // transaction), never the event's own claim.
  const { isWebhookAuthentic } = provider;
  if (isWebhookAuthentic) {
    deps.inbox.register<PreparedSumsubEvent>(
      provider.kind,
      async (tx, _delivery, { event, current }) => {
        const { userId, verdict, createdAt } = event;
        if (!userId || !verdict || !current || !(await userExists(tx, userId))) return;
        const record = await lockKycRecord(tx, userId);
        if (createdAt && record?.providerEventAt && createdAt < record.providerEventAt) return;
        const decided = await decideInTransaction(tx, userId, current.status, provider.kind, current.note, {
          applicantId: current.applicantId ?? record?.applicantId ?? null,
          ...(createdAt ? { providerEventAt: createdAt } : {}),
        });
        return () => announce(decided);
      },
      async (delivery) => {
        const [digest, algorithm] = SUMSUB_SIGNATURE_HEADERS.map((name) => delivery.headers[name]);
        if (!isWebhookAuthentic(delivery.rawBody, digest, algorithm))
          throw new Error('the stored webhook no longer verifies');
        const event = readSumsubEvent(delivery.rawBody);
        if (!event) throw new Error('the stored webhook is not a JSON object');
        if (!event.userId || !event.verdict || !(await userExists(db, event.userId)))
          return { event, current: null };
        // Stale already: no need to ask Sumsub (the transaction checks again, under lock).
        const known = await findKycRecord(db, event.userId);
        if (event.createdAt && known?.providerEventAt && event.createdAt < known.providerEventAt)
          return { event, current: null };
        // A Sumsub outage throws: the inbox retries later.
        return { event, current: await provider.fetchStatus(event.userId) };
      },
    );
  }

  /**
   * In the transaction of a change: the customer's open pages are told of it (realtime `kyc-updated`,
   * through the outbox, so it is delivered once the change commits, and retried). A decision that
   * changes the status (approved, or rejected with its reason) is also e-mailed to the customer.
   */
  async function recordNotice(
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

  /** Called after the change is committed: delivers its notice at once (the job retries a failure). */
  async function announce(record: Pick<KycRecordRow, 'userId'>): Promise<void> {
    await deps.outbox.deliverForUser(record.userId);
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

  const find = (userId: string): Promise<KycRecordRow | null> => findKycRecord(db, userId);

  async function save(userId: string, verdict: ProviderKycStatus): Promise<KycRecordRow> {
    const change = {
      provider: provider.kind,
      status: verdict.status,
      applicantId: verdict.applicantId,
      reviewNote: verdict.note,
      updatedAt: new Date(),
    };
    return saveAndAnnounce(userId, { ...change, submittedAt: new Date() }, change);
  }

  /** Reads the provider's verdict; a provider outage is a 503 the customer can retry. */
  async function providerVerdict(userId: string): Promise<ProviderKycStatus | null> {
    try {
      return await provider.fetchStatus(userId);
    } catch (error) {
      if (error instanceof KycProviderError) {
        deps.log.error({ err: error }, 'kyc provider failed');
        throw new AppError('UNAVAILABLE', PROVIDER_UNREACHABLE);
      }
      throw error;
    }
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
    /** What the provider's event adds: its applicant, and when it was created. */
    extra: Pick<KycRecordChange, 'applicantId' | 'providerEventAt'> = {},
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
  ): Promise<KycRecordRow> {
    const decided = await db.transaction((tx) => decideInTransaction(tx, userId, status, decidedBy, note));
    await announce(decided);
    return decided;
  }

  return {
    find,
    decide,
    decideInTransaction,
    announce,
    providerKind: provider.kind,

    async accessToken(userId: string): Promise<string | null> {
      try {
        return await provider.createAccessToken(userId);
      } catch (error) {
        if (error instanceof KycProviderError) {
          deps.log.error({ err: error }, 'kyc access token failed');
          throw new AppError('UNAVAILABLE', PROVIDER_UNREACHABLE);
        }
        throw error;
      }
    },

    /** After the widget says "submitted": record what the provider says, never what the browser says. */
    async syncFromProvider(userId: string): Promise<KycRecordRow> {
      if (provider.kind === 'local') {
        const record = await find(userId);
        if (!record) throw new AppError('BAD_REQUEST', 'Fill in the verification form first.');
        return record;
      }
      const verdict = await providerVerdict(userId);
      if (!verdict) throw new AppError('BAD_REQUEST', 'Finish the verification steps first.');
      return save(userId, verdict);
    },

    async submitLocal(userId: string, form: LocalKycForm, document: KycDocument): Promise<KycRecordRow> {
      if (provider.kind !== 'local')
        throw new AppError('NOT_FOUND', 'Use the verification window to verify your identity.');
      const existing = await find(userId);
      if (existing?.status === 'GREEN') throw new AppError('CONFLICT', 'Your identity is already verified.');
      if (existing?.status === 'YELLOW')
        throw new AppError('CONFLICT', 'Your verification is already under review.');
      const change = {
        provider: 'local' as const,
        status: 'YELLOW' as const,
        legalName: form.legalName,
        dateOfBirth: form.dateOfBirth,
        country: form.country,
        documentType: form.documentType,
        documentNumber: form.documentNumber,
        documentImage: document.bytes,
        documentMimeType: document.mimeType,
        reviewNote: null,
        decidedBy: null,
        decidedAt: null,
        submittedAt: new Date(),
        updatedAt: new Date(),
      };
      return saveAndAnnounce(userId, change, change);
    },

    /**
     * A provider's verified webhook: stored in the inbox (each delivery counts once) and applied by its
     * job, which records a verdict about one of our customers as the provider's decision. Answers
     * whether it was a replay.
     */
    async receiveWebhook(delivery: KycWebhookDelivery): Promise<'stored' | 'replay'> {
      return deps.inbox.receive(delivery);
    },

    /** Demo: approves local submissions that have waited `seconds`. Returns how many were approved. */
    async autoApproveOlderThan(seconds: number): Promise<number> {
      const approved = await db.transaction(async (tx) => {
        const approved = await approveLocalSubmissionsBefore(
          tx,
          new Date(Date.now() - seconds * 1000),
          'auto-approve',
        );
        for (const record of approved) await recordNotice(tx, record, 'YELLOW');
        return approved;
      });
      for (const record of approved) await announce(record);
      return approved.length;
    },
  };
}

export type KycService = ReturnType<typeof createKycService>;

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
