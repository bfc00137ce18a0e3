import type { SignedInUser, SessionService } from '../../auth/sessions';
import type { Database } from '../../db/database';
import { AppError } from '../../http/errors';
import { liftCustomerRestriction, restrictCustomer } from '../../users/customer-restriction.repository';
import { recordAdminAction } from '../admin-audit.repository';
import { lockUser, setUserDisabledAt } from '../admin-customers.repository';

export type CustomerAccessChange = 'disable' | 'enable' | 'restrict' | 'lift-restriction';

/**
 * Disables or re-enables a customer's account, restricts their trading (a staff decision, like a
 * reversal or a sanctions hit would: docs/design.md) or lifts a restriction, with the reason in the
 * audit log; a staff restriction keeps the reason on the customer, for the back office. The account is read and locked inside the
 * transaction that changes it; a disabled account's sessions end at once.
 */
export async function setCustomerAccess(
  deps: { db: Database; sessions: Pick<SessionService, 'revokeAllFor'> },
  request: { staff: SignedInUser; userId: string; change: CustomerAccessChange; reason: string },
): Promise<void> {
  const { staff, change } = request;
  const userId = await deps.db.transaction(async (tx) => {
    const user = await lockUser(tx, request.userId);
    if (!user) throw new AppError('NOT_FOUND', 'Customer not found.');
    if (change === 'restrict') {
      if (user.id === staff.user.id) throw new AppError('CONFLICT', 'You cannot restrict your own account.');
      const restrictedReason = `staff decision: ${request.reason}`;
      if (user.restrictedAt || !(await restrictCustomer(tx, user.id, restrictedReason))) {
        throw new AppError('CONFLICT', 'This customer is already restricted.');
      }
      await recordAdminAction(tx, staff, {
        action: 'user.restrict',
        targetType: 'user',
        targetId: user.id,
        before: { restrictedAt: null, restrictedReason: null },
        after: { restrictedReason },
        note: request.reason,
      });
      return user.id;
    }
    if (change === 'lift-restriction') {
      if (user.id === staff.user.id) throw new AppError('CONFLICT', 'You cannot lift your own restriction.');
      if (!user.restrictedAt || !(await liftCustomerRestriction(tx, user.id))) {
        throw new AppError('CONFLICT', 'This customer is not restricted.');
      }
      await recordAdminAction(tx, staff, {
        action: 'user.lift_restriction',
        targetType: 'user',
        targetId: user.id,
        before: { restrictedAt: user.restrictedAt, restrictedReason: user.restrictedReason },
        after: { restrictedAt: null, restrictedReason: null },
        note: request.reason,
      });
      return user.id;
    }
    if (user.id === staff.user.id) throw new AppError('CONFLICT', 'You cannot disable your own account.');
    if ((change === 'disable') === (user.disabledAt !== null)) {
      throw new AppError(
        'CONFLICT',
        `This account is already ${change === 'disable' ? 'disabled' : 'enabled'}.`,
      );
    }
    const disabledAt = change === 'disable' ? new Date() : null;
    await setUserDisabledAt(tx, user.id, disabledAt);
    await recordAdminAction(tx, staff, {
      action: `user.${change}`,
      targetType: 'user',
      targetId: user.id,
      before: { disabledAt: user.disabledAt },
      after: { disabledAt },
      note: request.reason,
    });
    return user.id;
  });
  if (change === 'disable') await deps.sessions.revokeAllFor(userId);
}
