import type { Database } from '../../db/database';
import { AppError } from '../../http/errors';
import { findKycCase, type KycCaseWithEmail } from '../admin-kyc.repository';

/** One customer's identity verification, as the reviewer sees it. */
export async function getKycCase(deps: { db: Database }, userId: string): Promise<KycCaseWithEmail> {
  const found = await findKycCase(deps.db, userId);
  if (!found) throw new AppError('NOT_FOUND', 'No identity verification for this customer.');
  return found;
}
