import type { KycRecordRow } from '../db/schema';

/**
 * The customer's own view of their verification: status and the reviewer's note, and
 * for a rejection its reason in full, so the customer knows what to fix before submitting again.
 */
export function toKycResponse(record: KycRecordRow | null) {
  if (!record) return { kyc: null };
  const reason = record.status === 'RED' ? record.reviewNote?.trim() : undefined;
  return {
    kyc: {
      _id: record.id,
      status: record.status,
      reviewNote: record.reviewNote,
      ...(reason ? { reason } : {}),
    },
  };
}
