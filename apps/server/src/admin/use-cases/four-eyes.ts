import type { SignedInUser } from '../../auth/sessions';
import type { Database } from '../../db/database';
import type { OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { isUniqueViolation } from '../../db/postgres-errors';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import { recordAdminAction } from '../admin-audit.repository';
import { lockOrder } from '../admin-orders.repository';
import {
  closeApproval,
  findOpenApproval,
  insertApproval,
  type FourEyesAction,
} from '../four-eyes.repository';

/** What the first admin's call answers (202): the action waits for a second admin. */
export interface PendingApproval {
  message: string;
  approval: { id: string; action: FourEyesAction; requestedBy: string };
}

export const WAITING_FOR_SECOND_APPROVER = 'Waiting for a second approver.';

/** Whether the action would apply to the order as it is now; if not, the action itself refuses it. */
function actionApplies(action: FourEyesAction, order: OrderRow): boolean {
  if (action === 'order.mark_paid') {
    return order.type === 'buy' && order.status === 'processing' && !order.paymentConfirmedAt;
  }
  return order.type === 'sell' && order.status === 'processing';
}

/**
 * Four eyes (DESIGN.md 7.6): marking a buy paid or paying a sell out at or above
 * `order.four_eyes_usd` needs two different admins. The first call records the request (audited) and
 * changes nothing else; the same admin again is refused (409); another admin's call goes ahead, and
 * `carryOut` runs it, closing the request once the action has succeeded.
 */
export async function withFourEyes<T>(
  deps: { db: Database },
  request: { staff: SignedInUser; orderId: string; action: FourEyesAction },
  carryOut: () => Promise<T>,
): Promise<{ done: T } | { pending: PendingApproval }> {
  const { staff, orderId, action } = request;
  const { fourEyesCents } = await findGlobalSettings(deps.db);
  const decision = await deps.db
    .transaction(async (tx) => {
      const order = await lockOrder(tx, orderId);
      // An unknown order or one the action does not fit: the action gives its own answer.
      if (!order || !actionApplies(action, order)) return { go: true as const, approvalId: null };
      if (order.valueCents < fourEyesCents) return { go: true as const, approvalId: null };
      const open = await findOpenApproval(tx, order.id, action);
      if (open) {
        if (open.requestedByUserId === staff.user.id) {
          throw new AppError(
            'SECOND_APPROVER_REQUIRED',
            'You already asked for this. A second admin must carry it out.',
          );
        }
        return { go: true as const, approvalId: open.id };
      }
      const created = await insertApproval(tx, {
        orderId: order.id,
        action,
        requestedByUserId: staff.user.id,
        requestedByEmail: staff.user.email,
      });
      await recordAdminAction(tx, staff, {
        action: 'order.four_eyes_requested',
        targetType: 'order',
        targetId: order.id,
        after: { approvalId: created.id, action },
      });
      return { go: false as const, approval: created };
    })
    .catch((error: unknown) => {
      // Two first calls at once: the other one recorded the request.
      if (isUniqueViolation(error)) {
        throw new AppError('CONFLICT', 'Another admin asked for this just now. Reload the order.');
      }
      throw error;
    });

  if (!decision.go) {
    const { approval } = decision;
    return {
      pending: {
        message: WAITING_FOR_SECOND_APPROVER,
        approval: { id: approval.id, action: approval.action, requestedBy: approval.requestedByEmail },
      },
    };
  }
  const done = await carryOut();
  if (decision.approvalId) {
    await deps.db.transaction(async (tx) => {
      const closed = await closeApproval(tx, decision.approvalId, staff.user.id);
      if (closed) {
        await recordAdminAction(tx, staff, {
          action: 'order.four_eyes_approved',
          targetType: 'order',
          targetId: orderId,
          after: { approvalId: closed.id, action, requestedBy: closed.requestedByEmail },
        });
      }
    });
  }
  return { done };
}
