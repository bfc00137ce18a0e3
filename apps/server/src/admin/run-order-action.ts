import type { SimulatedChain } from '../chain/simulated-chain';
import type { Database, Transaction } from '../db/database';
import type { OrderRow } from '../db/schema';
import type { SignedInUser } from '../auth/sessions';
import { AppError } from '../http/errors';
import type { OrderNotifier } from '../orders/order-notifications';
import { recordAdminAction } from './admin-audit.repository';
import { lockOrder } from './admin-orders.repository';
import type { ApprovalClosing } from './use-cases/four-eyes';
import { readOrderActionFacts } from './order-action-rules';

export interface OrderActionDeps {
  db: Database;
  notify: OrderNotifier;
  /** Confirmations a sell deposit needs before the dollars go out. */
  confirmationsRequired: number;
  /** The demo chain, through which demo payouts are sent; null when a real chain is used. */
  simulatedChain: SimulatedChain | null;
}

/** The facts the action rules read about `order`, inside the action's transaction. */
export function actionFactsIn(tx: Transaction, deps: OrderActionDeps, order: OrderRow) {
  return readOrderActionFacts(tx, order, {
    confirmationsRequired: deps.confirmationsRequired,
    demoChain: deps.simulatedChain !== null,
  });
}

/** Who does what to which order, and the note the audit log keeps. */
export interface OrderActionRequest {
  staff: SignedInUser;
  orderId: string;
  note: string | null;
  /** A four-eyes approval this call carries out: closed in the same transaction as the change. */
  approval?: ApprovalClosing | null | undefined;
}

/**
 * Runs one admin action on an order: the order is read and locked inside the transaction that
 * changes it, so the audit entry's "before" is exactly the state the change started from, and the
 * entry commits with the change. The customer is told once the status change is committed.
 */
export async function runOrderAction(
  deps: OrderActionDeps,
  request: OrderActionRequest & { action: string },
  change: (tx: Transaction, before: OrderRow) => Promise<OrderRow>,
): Promise<OrderRow> {
  const { before, after } = await deps.db.transaction(async (tx) => {
    const before = await lockOrder(tx, request.orderId);
    if (!before) throw new AppError('NOT_FOUND', 'Order not found.');
    const after = await change(tx, before);
    await request.approval?.(tx, before);
    await recordAdminAction(tx, request.staff, {
      action: request.action,
      targetType: 'order',
      targetId: before.id,
      before,
      after,
      note: request.note,
    });
    return { before, after };
  });
  // A payment confirmed or a flag cleared may make a payout due at once (a Lightning buy, an instant
  // sell) without changing the status: those are told too (docs/design.md, "Payouts").
  const payoutMayBeDue =
    (after.paymentConfirmedAt !== null && before.paymentConfirmedAt === null) ||
    (after.flag === null && before.flag !== null);
  if (after.status !== before.status || payoutMayBeDue) await deps.notify(after);
  return after;
}

/** How an admin appears in an order's timeline. */
export const adminActor = (staff: SignedInUser) => `admin:${staff.user.id}`;
