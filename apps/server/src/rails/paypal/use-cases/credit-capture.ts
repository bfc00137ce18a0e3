import type { Transaction } from '../../../db/database';
import type { OrderRow } from '../../../db/schema';
import { moveOrder } from '../../../orders/order-state';
import { setTravelRulePaymentIdentifier } from '../../../orders/travel-rule.repository';
import type { PayPalCaptureResult } from '../paypal-gateway';

/** Why a capture cannot credit the order, if it cannot: nothing when it matches the order exactly. */
export function captureProblems(
  capture: PayPalCaptureResult,
  order: OrderRow,
  captureStatus: string,
): string[] {
  const problems: string[] = [];
  if (capture.status !== 'COMPLETED' || capture.captureStatus !== captureStatus || !capture.captureId)
    problems.push(`status ${capture.status}/${capture.captureStatus ?? 'no capture'}`);
  if (capture.currency !== 'USD' || capture.amountCents !== order.valueCents) {
    problems.push(
      `captured ${capture.amountCents ?? '?'} ${capture.currency ?? '?'} cents for ${order.valueCents}`,
    );
  }
  if (capture.referenceId !== order.id) problems.push('reference does not match the order');
  return problems;
}

/**
 * Moves a paid order on, exactly as a completed capture does. The order's Travel Rule record (orders
 * of $3,000 or more) names the capture that paid it.
 */
export async function creditCapture(
  tx: Transaction,
  order: Pick<OrderRow, 'id'>,
  payment: { paypalOrderId: string | null; captureId: string },
  actor: string,
  reason: string,
  now: Date,
): Promise<OrderRow> {
  await setTravelRulePaymentIdentifier(tx, order.id, `paypal ${payment.captureId}`);
  return moveOrder(tx, {
    orderId: order.id,
    // An order whose quote ran out while PayPal held its payment is paid all the same.
    from: ['pending', 'expired'],
    to: 'processing',
    actor,
    reason,
    patch: {
      paymentMethod: 'paypal',
      paypalCaptureId: payment.captureId,
      bankTxn: payment.captureId,
      paymentSubmittedAt: now,
      paymentConfirmedAt: now,
      paymentConfirmedBy: 'paypal',
    },
    details: { paypalOrderId: payment.paypalOrderId, captureId: payment.captureId },
  });
}
