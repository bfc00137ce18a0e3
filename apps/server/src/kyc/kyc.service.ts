import type { FastifyBaseLogger } from 'fastify';
import type { LocalKycForm } from '@offzero/shared/api/kyc';
import type { Database } from '../db/database';
import type { KycRecordRow } from '../db/schema';
import { AppError } from '../http/errors';
import { isPlaceCode } from '@offzero/shared/places/places';
import { checkPlaceCode, recordingShieldRefusals } from '../places/place-check';
import type { OutboxService } from '../outbox/outbox.service';
import type { InboxService } from '../inbox/inbox.service';
import { KycProviderError, type KycProvider, type ProviderKycStatus } from './kyc-provider';
import { createKycRecords, recordNotice } from './kyc-records';
import { approveLocalSubmissionsBefore, findKycRecord } from './kyc.repository';
import { registerSumsubWebhooks } from './sumsub-webhook';

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
  const records = createKycRecords(deps);
  const { announce, saveAndAnnounce, decideInTransaction, decide } = records;
  registerSumsubWebhooks(deps, records);

  const find = (userId: string): Promise<KycRecordRow | null> => findKycRecord(db, userId);

  async function save(userId: string, verdict: ProviderKycStatus): Promise<KycRecordRow> {
    const change = {
      provider: provider.kind,
      status: verdict.status,
      applicantId: verdict.applicantId,
      reviewNote: verdict.note,
      ...(verdict.residenceState ? { residenceState: verdict.residenceState } : {}),
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
      // A place where OffZero may not trade is told so before anything is stored or reviewed
      // (docs/design.md, "Places and the scam shield").
      const place = form.residenceState && isPlaceCode(form.residenceState) ? form.residenceState : null;
      await recordingShieldRefusals(db, userId, 'kyc', () =>
        checkPlaceCode(db, place, { userId, side: 'any', route: 'kyc' }),
      );
      const change = localSubmission(form, document);
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

/** The record of a form filled in on the local provider: under review, any earlier decision cleared. */
function localSubmission(form: LocalKycForm, document: KycDocument) {
  return {
    provider: 'local' as const,
    status: 'YELLOW' as const,
    legalName: form.legalName,
    dateOfBirth: form.dateOfBirth,
    country: form.country,
    residenceState: form.residenceState ?? null,
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
}
