import type { LimitTier } from '@offzero/shared/api/limits';
import type { SignedInUser } from '../../auth/sessions';
import type { Database } from '../../db/database';
import { AppError } from '../../http/errors';
import { setLimitTier } from '../../limits/limits.repository';
import { recordAdminAction } from '../admin-audit.repository';
import { lockUser } from '../admin-customers.repository';

/**
 * Moves a customer to another KYC tier, whose trading limits apply from their next order
 * (docs/design.md), with the reason in the audit log. Read and locked in the transaction that changes
 * it, so a save in progress finishes under the old tier and the next one counts with the new.
 */
export async function setCustomerTier(
  deps: { db: Database },
  request: { staff: SignedInUser; userId: string; tier: LimitTier; reason: string },
): Promise<void> {
  const { staff, tier } = request;
  await deps.db.transaction(async (tx) => {
    const user = await lockUser(tx, request.userId);
    if (!user) throw new AppError('NOT_FOUND', 'Customer not found.');
    if (user.id === staff.user.id) throw new AppError('CONFLICT', 'You cannot change your own tier.');
    if (user.limitTier === tier) throw new AppError('CONFLICT', `This customer is already in tier ${tier}.`);
    await setLimitTier(tx, user.id, tier);
    await recordAdminAction(tx, staff, {
      action: 'user.set_tier',
      targetType: 'user',
      targetId: user.id,
      before: { limitTier: user.limitTier },
      after: { limitTier: tier },
      note: request.reason,
    });
  });
}
