import type { Database } from '../../db/database';
import type { KycStatus } from '../../db/schema';
import { findKycCases, type KycCaseWithEmail } from '../admin-kyc.repository';

/** The identity verifications in one status, longest waiting first. */
export async function listKycCases(deps: { db: Database }, status: KycStatus): Promise<KycCaseWithEmail[]> {
  return findKycCases(deps.db, status);
}
