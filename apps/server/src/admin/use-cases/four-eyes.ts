import { formatBtc, formatUsd } from '@offzero/shared/money/money';
import type { SignedInUser } from '../../auth/sessions';
import type { Database, Transaction } from '../../db/database';
import type { FourEyesApprovalRow, OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { isUniqueViolation } from '../../db/postgres-errors';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import { recordAdminAction } from '../admin-audit.repository';
import { lockOrder } from '../admin-orders.repository';
import {
  closeApproval,
  findOpenApproval,
  insertApproval,
  replaceApprovalDetails,
  type FourEyesAction,
} from '../four-eyes.repository';

/** What the first admin's call answers (202): the action waits for a second admin. */
export interface PendingApproval {
  message: string;
  approval: { id: string; action: FourEyesAction; requestedBy: string };
}

export const WAITING_FOR_SECOND_APPROVER = 'Waiting for a second approver.';

/**
 * Run inside the action's own transaction, with the order locked: closes the approval the action carries
 * out, so the action and its approval commit together or not at all.
 */
export type ApprovalClosing = (tx: Transaction, order: OrderRow) => Promise<void>;

/** What an approval is bound to: the action's details and the order's value and amount when asked. */
function boundDetails(details: Record<string, string>, order: OrderRow): Record<string, string> {
  return { ...details, valueCents: order.valueCents.toString(), amountSats: order.amountSats.toString() };
}

function describeDetail(key: string, value: string | undefined): string {
  if (value === undefined) return `no ${key}`;
  if (key === 'valueCents') return `an order value of $${formatUsd(BigInt(value))}`;
  if (key === 'amountSats') return `${formatBtc(BigInt(value), 8)} BTC`;
  return `${key} "${value}"`;
}

/** The details that differ, in words (empty when the two are the same). */
function differences(
  requested: Record<string, string>,
  asked: Record<string, string>,
): { requested: string[]; asked: string[] } {
  const keys = [...new Set([...Object.keys(requested), ...Object.keys(asked)])].filter(
    (key) => requested[key] !== asked[key],
  );
  return {
    requested: keys.map((key) => describeDetail(key, requested[key])),
    asked: keys.map((key) => describeDetail(key, asked[key])),
  };
}

function mismatch(open: FourEyesApprovalRow, asked: Record<string, string>): AppError | null {
  const diff = differences(open.details, asked);
  if (diff.requested.length === 0) return null;
  return new AppError(
    'CONFLICT',
    `${open.requestedByEmail} requested this for ${diff.requested.join(', ')}; this call is for ` +
      `${diff.asked.join(', ')}. Nothing was done: carry out exactly what was requested, or ask ` +
      `${open.requestedByEmail} to request it again.`,
  );
}

/**
 * Four eyes (docs/design.md): marking a buy paid or paying a sell out at or above
 * `order.four_eyes_usd` needs two different admins, and so does paying a sell again after its payout
 * came back (`alwaysTwoAdmins`).
 * - The action's own refusals come first (`check`, on the locked order): a flagged order answers
 *   "Resolve the flag first." and no request is recorded.
 * - The first call records the request (audited) with its details and changes nothing else.
 * - The same admin again with the same details is refused (409); with other details (a mistyped
 *   reference) their request is replaced and waits again.
 * - Another admin's call with the same details carries out exactly what was requested; with other
 *   details (or once the order's value or amount changed) it is refused and nothing is done.
 * `carryOut` gets the requested details and, when an approval is carried out, the closing to run inside
 * the action's transaction.
 */
export async function withFourEyes<D extends Record<string, string>, T>(
  deps: { db: Database },
  request: {
    staff: SignedInUser;
    orderId: string;
    action: FourEyesAction;
    details: D;
    check: (tx: Transaction, order: OrderRow) => Promise<void>;
    /** Two admins whatever the order's value (a second payout after one came back). */
    alwaysTwoAdmins?: (tx: Transaction, order: OrderRow) => Promise<boolean>;
  },
  carryOut: (approved: D, closing: ApprovalClosing | null) => Promise<T>,
): Promise<{ done: T } | { pending: PendingApproval }> {
  const { staff, orderId, action } = request;
  const { fourEyesCents } = await findGlobalSettings(deps.db);
  const decision = await deps.db
    .transaction(async (tx) => {
      const order = await lockOrder(tx, orderId);
      if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
      await request.check(tx, order);
      const twoAdmins =
        order.valueCents >= fourEyesCents || ((await request.alwaysTwoAdmins?.(tx, order)) ?? false);
      if (!twoAdmins) return { go: true as const, approval: null };
      const asked = boundDetails(request.details, order);
      const open = await findOpenApproval(tx, order.id, action);
      if (open && open.requestedByUserId !== staff.user.id) {
        const refused = mismatch(open, asked);
        if (refused) throw refused;
        return { go: true as const, approval: open };
      }
      if (open && !mismatch(open, asked)) {
        throw new AppError(
          'SECOND_APPROVER_REQUIRED',
          'You already asked for this. A second admin must carry it out.',
        );
      }
      const recorded = open
        ? await replaceApprovalDetails(tx, open.id, asked)
        : await insertApproval(tx, {
            orderId: order.id,
            action,
            requestedByUserId: staff.user.id,
            requestedByEmail: staff.user.email,
            details: asked,
          });
      await recordAdminAction(tx, staff, {
        action: 'order.four_eyes_requested',
        targetType: 'order',
        targetId: order.id,
        before: open ? { approvalId: open.id, details: open.details } : null,
        after: { approvalId: recorded.id, action, details: asked },
      });
      return { go: false as const, approval: recorded };
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
  const { approval } = decision;
  if (!approval) return { done: await carryOut(request.details, null) };

  const approved = Object.fromEntries(
    Object.keys(request.details).map((key) => [key, approval.details[key]]),
  ) as D;
  const closing: ApprovalClosing = async (tx, order) => {
    // Under the order's lock, as every change of the request is: the request is still the one checked.
    const closed = await closeApproval(tx, approval.id, staff.user.id);
    const changed = closed ? mismatch(closed, boundDetails(approved, order)) : null;
    if (!closed || changed) {
      throw new AppError('CONFLICT', 'The request for this changed meanwhile. Reload the order.');
    }
    await recordAdminAction(tx, staff, {
      action: 'order.four_eyes_approved',
      targetType: 'order',
      targetId: order.id,
      after: { approvalId: closed.id, action, requestedBy: closed.requestedByEmail, details: closed.details },
    });
  };
  return { done: await carryOut(approved, closing) };
}
