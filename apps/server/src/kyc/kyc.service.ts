import { and, eq, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { LocalKycForm } from '@offzero/shared/api/kyc';
import type { Database } from '../db/database';
import { kycRecords, type KycRecordRow, type KycStatus } from '../db/schema';
import { AppError } from '../http/errors';
import { KycProviderError, type KycProvider, type ProviderKycStatus } from './kyc-provider';

export interface KycDocument {
  bytes: Buffer;
  mimeType: string;
}

/** Identity verification rules. The browser only ever asks; the provider or an admin decides. */
export function createKycService(deps: { db: Database; provider: KycProvider; log: FastifyBaseLogger }) {
  const { db, provider } = deps;

  async function find(userId: string): Promise<KycRecordRow | null> {
    const [record] = await db.select().from(kycRecords).where(eq(kycRecords.userId, userId));
    return record ?? null;
  }

  async function save(userId: string, verdict: ProviderKycStatus): Promise<KycRecordRow> {
    const values = {
      provider: provider.kind,
      status: verdict.status,
      applicantId: verdict.applicantId,
      reviewNote: verdict.note,
      updatedAt: new Date(),
    };
    const [saved] = await db
      .insert(kycRecords)
      .values({ userId, ...values, submittedAt: new Date() })
      .onConflictDoUpdate({ target: kycRecords.userId, set: values })
      .returning();
    if (!saved) throw new Error('kyc upsert returned nothing');
    return saved;
  }

  /** Reads the provider's verdict; a provider outage is a 503 the customer can retry. */
  async function providerVerdict(userId: string): Promise<ProviderKycStatus | null> {
    try {
      return await provider.fetchStatus(userId);
    } catch (error) {
      if (error instanceof KycProviderError) {
        deps.log.error({ err: error }, 'kyc provider failed');
        throw new AppError(
          'UNAVAILABLE',
          'Identity verification is not reachable right now. Try again in a minute.',
        );
      }
      throw error;
    }
  }

  return {
    find,
    providerKind: provider.kind,

    async accessToken(userId: string): Promise<string | null> {
      try {
        return await provider.createAccessToken(userId);
      } catch (error) {
        if (error instanceof KycProviderError) {
          deps.log.error({ err: error }, 'kyc access token failed');
          throw new AppError(
            'UNAVAILABLE',
            'Identity verification is not reachable right now. Try again in a minute.',
          );
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
      const values = {
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
      const [saved] = await db
        .insert(kycRecords)
        .values({ userId, ...values })
        .onConflictDoUpdate({ target: kycRecords.userId, set: values })
        .returning();
      if (!saved) throw new Error('kyc upsert returned nothing');
      return saved;
    },

    /** A decision by an admin, the demo helper or a verified webhook. Creates the record if none. */
    async decide(
      userId: string,
      status: KycStatus,
      decidedBy: string,
      note: string | null = null,
    ): Promise<KycRecordRow> {
      const values = { status, decidedBy, decidedAt: new Date(), reviewNote: note, updatedAt: new Date() };
      const [saved] = await db
        .insert(kycRecords)
        .values({ userId, provider: provider.kind, submittedAt: new Date(), ...values })
        .onConflictDoUpdate({ target: kycRecords.userId, set: values })
        .returning();
      if (!saved) throw new Error('kyc upsert returned nothing');
      return saved;
    },

    /** Demo: approves local submissions that have waited `seconds`. Returns how many were approved. */
    async autoApproveOlderThan(seconds: number): Promise<number> {
      const approved = await db
        .update(kycRecords)
        .set({ status: 'GREEN', decidedBy: 'auto-approve', decidedAt: new Date(), updatedAt: new Date() })
        .where(
          and(
            eq(kycRecords.provider, 'local'),
            eq(kycRecords.status, 'YELLOW'),
            lt(kycRecords.submittedAt, new Date(Date.now() - seconds * 1000)),
          ),
        )
        .returning({ id: kycRecords.id });
      return approved.length;
    },
  };
}

export type KycService = ReturnType<typeof createKycService>;

export function toKycResponse(record: KycRecordRow | null) {
  return { kyc: record ? { _id: record.id, status: record.status, reviewNote: record.reviewNote } : null };
}
