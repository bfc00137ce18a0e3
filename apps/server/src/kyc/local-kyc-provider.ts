import { eq } from 'drizzle-orm';
import type { Database } from '../db/database';
import { kycRecords } from '../db/schema';
import type { KycProvider } from './kyc-provider';

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
      const [record] = await db.select().from(kycRecords).where(eq(kycRecords.userId, userId));
      if (!record) return null;
      return { status: record.status, applicantId: null, note: record.reviewNote };
    },
  };
}
