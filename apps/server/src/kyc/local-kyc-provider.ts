import type { Database } from '../db/database';
import type { KycProvider } from './kyc-provider';
import { findKycRecord } from './kyc.repository';

/**
 * Demo identity verification: the customer fills in a form inside OffZero and an admin (or the
 * auto-approve timer, or the demo helper) decides. Our own record is the provider's truth.
 */
export function createLocalKycProvider(db: Database): KycProvider {
  return {
    kind: 'local',
    async createAccessToken() {
      return null;
    },
    async fetchStatus(userId) {
      const record = await findKycRecord(db, userId);
      if (!record) return null;
      return { status: record.status, applicantId: null, note: record.reviewNote };
    },
  };
}
