import { SCAM_MESSAGES } from '@offzero/shared/places/scam-shield';
import { PAYOUT_RAILS } from '@offzero/shared/api/payouts';
import { openCase } from '../cases/cases.repository';
import type { Database } from '../db/database';
import type { OrderRow, UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import { moveOrder, OrderStateError } from '../orders/order-state';
import { findCustomerOrder } from '../orders/order.repository';
import { isUuid } from '../http/ids';
import { claimPayout } from '../payouts/payout-state';
import { recordShieldDecision } from '../places/places.repository';
import { hasPayoutStarted } from './scam-shield.repository';

export const SCAM_CANCEL_REASON = 'The customer cancelled it as a scam.';

/** Whether money came in for the buy (submitted, confirmed or captured): then it goes back. */
function wasPaid(order: OrderRow): boolean {
  return (
    order.paymentSubmittedAt !== null ||
    order.paymentConfirmedAt !== null ||
    order.paypalCaptureId !== null ||
    order.bankTxn !== null
  );
}

/**
 * "Cancel — I think this is a scam" (docs/design.md, "Places and the scam shield"): the customer
 * cancels a buy of theirs until its bitcoin payout starts (no live payout row, no payout batch holding
 * it). Under the order's lock: the order is cancelled, and when the customer's dollars came in, a USD
 * refund to the rail they paid by is claimed as a payout (`refund`, `requested`, sent by staff and
 * recorded, docs/design.md "Payouts"); a `scam_suspected` case opens for staff, and the decision is
 * kept in the shield's audit trail. Another customer's order answers 404.
 */
export async function cancelBuyAsScam(
  deps: { db: Database; now: () => Date; notify: (order: OrderRow) => Promise<void> },
  user: UserRow,
  orderId: string,
): Promise<{ order: OrderRow; refundClaimed: boolean }> {
  const found = isUuid(orderId) ? await findCustomerOrder(deps.db, user.id, orderId) : undefined;
  if (!found) throw new AppError('NOT_FOUND', 'Order not found.');
  if (found.type !== 'buy') throw new AppError('BAD_REQUEST', 'Only a buy can be cancelled as a scam.');
  const result = await deps.db
    .transaction(async (tx) => {
      const cancelled = await moveOrder(tx, {
        orderId: found.id,
        from: ['pending', 'processing'],
        to: 'cancelled',
        actor: `user:${user.id}`,
        reason: SCAM_CANCEL_REASON,
        patch: { cancelReason: SCAM_CANCEL_REASON, coolingUntil: null },
      });
      // Read under the order's lock (moveOrder took it): a payout claimed meanwhile rolls this back.
      if (await hasPayoutStarted(tx, found.id)) throw new AppError('CONFLICT', SCAM_MESSAGES.tooLateToCancel);
      const method = cancelled.paymentMethod;
      const refundRail = method && (PAYOUT_RAILS as readonly string[]).includes(method) ? method : null;
      const refundClaimed = wasPaid(cancelled) && refundRail !== null;
      if (refundClaimed) {
        await claimPayout(
          tx,
          {
            orderId: cancelled.id,
            kind: 'usd',
            rail: refundRail,
            sender: 'operator',
            purpose: 'refund',
            address: null,
            amountSats: null,
            createdBy: `user:${user.id}`,
            batchId: null,
          },
          'requested',
        );
      }
      const now = deps.now();
      await openCase(tx, {
        userId: user.id,
        rule: 'scam_suspected',
        triggerKey: `scam-cancel:${cancelled.id}`,
        evidence: {
          orderId: cancelled.id,
          valueCents: cancelled.valueCents.toString(),
          refundClaimed,
          at: now,
        },
        now,
      });
      await recordShieldDecision(tx, {
        userId: user.id,
        decision: 'scam_cancel',
        orderId: cancelled.id,
        route: 'scam-cancel',
        detail: { refundClaimed, rail: refundRail, valueCents: cancelled.valueCents.toString() },
      });
      return { order: cancelled, refundClaimed };
    })
    .catch((error: unknown) => {
      if (error instanceof OrderStateError) {
        throw new AppError(
          'CONFLICT',
          `This order is ${found.status === 'completed' ? 'completed' : 'no longer open'}, so it can no longer be cancelled.`,
        );
      }
      throw error;
    });
  await deps.notify(result.order);
  return result;
}
