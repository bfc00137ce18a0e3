import type { SignedInUser } from '../../auth/sessions';
import type { Database } from '../../db/database';
import type { KycRecordRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import type { KycService } from '../../kyc/kyc.service';
import { recordAdminAction } from '../admin-audit.repository';
import { lockKycRecord } from '../admin-kyc.repository';

/**
 * An admin approves (GREEN) or rejects (RED, with a reason the customer reads) a case under review.
 * The case is read and locked inside the transaction that decides it, with its audit entry; the
 * customer's open pages hear of it once it is committed.
 */
export async function decideKycCase(
  deps: { db: Database; kyc: KycService },
  request: { staff: SignedInUser; userId: string; status: 'GREEN' | 'RED'; reason: string | null },
): Promise<KycRecordRow> {
  const { staff, status, reason } = request;
  const decided = await deps.db.transaction(async (tx) => {
    const record = await lockKycRecord(tx, request.userId);
    if (!record) throw new AppError('NOT_FOUND', 'No identity verification for this customer.');
    if (status === 'RED' && (!reason || reason.length < 3)) {
      throw new AppError('BAD_REQUEST', 'Give the customer a reason for the rejection.');
    }
    if (record.status !== 'YELLOW') {
      throw new AppError('CONFLICT', `This case was already decided (${record.status}).`);
    }
    const decided = await deps.kyc.decideInTransaction(tx, record.userId, status, staff.user.email, reason);
    await recordAdminAction(tx, staff, {
      action: status === 'GREEN' ? 'kyc.approve' : 'kyc.reject',
      targetType: 'kyc',
      targetId: record.userId,
      before: { status: record.status },
      after: { status: decided.status, reviewNote: decided.reviewNote },
      note: reason,
    });
    return decided;
  });
  await deps.kyc.announce(decided);
  return decided;
}
