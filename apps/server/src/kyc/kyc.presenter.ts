import type { KycRecordRow } from '../db/schema';

/** The customer's own view of their verification (spec section 7): status and the reviewer's note. */
export function toKycResponse(record: KycRecordRow | null) {
  return { kyc: record ? { _id: record.id, status: record.status, reviewNote: record.reviewNote } : null };
}
