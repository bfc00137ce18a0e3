import type { Transaction } from '../../../db/database';
import { moveOrder } from '../../../orders/order-state';
import { restrictCustomer } from '../../../users/customer-restriction.repository';
import type { PayPalWebhookEvent } from '../paypal-webhook-event';
import { flagOrderIn, flagPaymentReversed, lockOrderOfPayPalPayment } from '../paypal.repository';
import { creditCapture } from './credit-capture';
import type { PayPalDeps } from './paypal-deps';

/** Applies one verified PayPal event; answers the after-commit notice, if any. */
export async function applyWebhookEvent(
  deps: PayPalDeps,
  tx: Transaction,
  event: PayPalWebhookEvent,
): Promise<(() => Promise<void>) | void> {
  const { notify, log, now } = deps;
  const actor = 'system:paypal-webhook';
  if (event.kind === 'other') return;
  const order = await lockOrderOfPayPalPayment(tx, {
    captureId: event.captureId,
    paypalOrderId: event.kind === 'capture-completed' ? event.paypalOrderId : null,
  });
  if (!order) {
    log.warn({ eventId: event.id, eventType: event.eventType }, 'paypal event for no order of ours');
    return;
  }
  switch (event.kind) {
    case 'payment-reversed': {
      await flagPaymentReversed(tx, order, `${event.eventType}: ${event.note}`, actor, now());
      await restrictCustomer(
        tx,
        order.userId,
        `PayPal payment taken back on order #${order.id.slice(0, 8)} (${event.eventType})`,
      );
      return;
    }
    case 'capture-denied': {
      if (order.status !== 'pending' || order.paypalCaptureId !== event.captureId) return;
      const cancelled = await moveOrder(tx, {
        orderId: order.id,
        from: ['pending'],
        to: 'cancelled',
        actor,
        reason: 'PayPal declined the held payment',
        patch: { cancelReason: 'PayPal declined the payment.' },
        details: { captureId: event.captureId },
      });
      return () => notify(cancelled);
    }
    case 'capture-completed': {
      // Only a capture PayPal held (recorded PENDING) is credited here, once. A capture the customer's
      // page is crediting right now is theirs to credit; one whose answer was lost, the
      // reconciliation's.
      if (order.status !== 'pending' && order.status !== 'expired') return;
      if (order.paypalCaptureId !== event.captureId) return;
      if (event.currency !== 'USD' || event.amountCents !== order.valueCents) {
        await flagOrderIn(
          tx,
          order.id,
          'capture_mismatch',
          `PayPal completed ${event.amountCents ?? '?'} ${event.currency ?? '?'} cents for ${order.valueCents}`,
          now(),
        );
        return;
      }
      const moved = await creditCapture(
        tx,
        order,
        { paypalOrderId: order.paypalOrderId, captureId: event.captureId },
        actor,
        'PayPal payment completed',
        now(),
      );
      return () => notify(moved);
    }
  }
}
