import type { Database } from '../db/database';
import type { KycStatus } from '../db/schema';
import type { InboxService } from '../inbox/inbox.service';
import type { KycProvider, ProviderKycStatus } from './kyc-provider';
import type { KycRecords } from './kyc-records';
import { findKycRecord, lockKycRecord, userExists } from './kyc.repository';
import { fromReview } from './sumsub-kyc-provider';

/** Sumsub's webhooks: what one says, and how a stored one is applied (docs/design.md, "Notices and webhooks"). */

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

/**
 * Registers with the inbox how a stored Sumsub webhook is applied. It is verified again and applied by
 * the inbox's job, in the transaction that marks it processed: its decision and notice commit with it,
 * and it is never applied twice. Events may arrive late and out of order: one older than the last
 * applied for the customer changes nothing, and what is applied is the applicant's status read back
 * from Sumsub (before the transaction), never the event's own claim.
 */
export function registerSumsubWebhooks(
  deps: { db: Database; provider: KycProvider; inbox: Pick<InboxService, 'register'> },
  records: Pick<KycRecords, 'decideInTransaction' | 'announce'>,
): void {
  const { db, provider } = deps;
  const { isWebhookAuthentic } = provider;
  if (!isWebhookAuthentic) return;
  deps.inbox.register<PreparedSumsubEvent>(
    provider.kind,
    async (tx, _delivery, { event, current }) => {
      const { userId, verdict, createdAt } = event;
      if (!userId || !verdict || !current || !(await userExists(tx, userId))) return;
      const record = await lockKycRecord(tx, userId);
      if (createdAt && record?.providerEventAt && createdAt < record.providerEventAt) return;
      const decided = await records.decideInTransaction(
        tx,
        userId,
        current.status,
        provider.kind,
        current.note,
        {
          applicantId: current.applicantId ?? record?.applicantId ?? null,
          ...(createdAt ? { providerEventAt: createdAt } : {}),
          ...(current.residenceState ? { residenceState: current.residenceState } : {}),
        },
      );
      return () => records.announce(decided);
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
