import type { OrderRow } from '../../../db/schema';
import { lockOrder } from '../../../orders/order.repository';
import type { PayPalCaptureResult } from '../paypal-gateway';
import { findUnsettledPayPalOrders, flagOrderIn, recordPendingCapture } from '../paypal.repository';
import { captureProblems, creditCapture } from './credit-capture';
import type { PayPalDeps } from './paypal-deps';

/** The reconciliation reads back PayPal orders created at least this long ago… */
const RECONCILE_AFTER_MS = 30 * 60_000;
/** …and at most this long ago (PayPal lets an unpaid order be captured for 3 days at most)… */
const RECONCILE_UNPAID_FOR_MS = 3 * 86_400_000;
/** …or this long for an order holding a PENDING capture (eChecks clear within days). */
const RECONCILE_HELD_FOR_MS = 30 * 86_400_000;
const RECONCILE_BATCH = 200;

/**
 * The reconciliation job: reads back from PayPal every PayPal order created more than 30 minutes ago
 * and not settled, and applies what it finds — a capture completed whose answer was lost is
 * credited, one PayPal still holds is recorded, an abandoned one is left as it is.
 */
export async function reconcilePayPal(deps: PayPalDeps): Promise<Record<string, number>> {
  const at = deps.now().getTime();
  const due = await findUnsettledPayPalOrders(
    deps.db,
    {
      createdBefore: new Date(at - RECONCILE_AFTER_MS),
      recentSince: new Date(at - RECONCILE_UNPAID_FOR_MS),
      heldSince: new Date(at - RECONCILE_HELD_FOR_MS),
    },
    RECONCILE_BATCH,
  );
  const outcomes: Record<string, number> = {};
  for (const { id, paypalOrderId } of due) {
    let outcome: string;
    try {
      outcome = await reconcileOrder(deps, id, await deps.gateway.getOrder(paypalOrderId!));
    } catch (error) {
      // One order PayPal cannot answer now does not stop the others; the next run tries again.
      deps.log.warn({ err: error, orderId: id, paypalOrderId }, 'paypal reconciliation of an order failed');
      outcome = 'error';
    }
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  return outcomes;
}

/** Applies what PayPal says of one of our unsettled orders (the reconciliation job). */
async function reconcileOrder(
  deps: PayPalDeps,
  orderId: string,
  capture: PayPalCaptureResult,
): Promise<string> {
  const { now } = deps;
  const actor = 'system:paypal-reconcile';
  let credited: OrderRow | null = null;
  const outcome = await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    if (!order || (order.status !== 'pending' && order.status !== 'expired')) return 'settled';
    if (!capture.captureId || capture.captureStatus === null) return 'not paid';
    if (order.paypalCaptureId && order.paypalCaptureId !== capture.captureId) return 'other capture';
    if (capture.captureStatus === 'PENDING') {
      if (order.status === 'pending' && !order.paypalCaptureId)
        await recordPendingCapture(tx, order.id, capture.captureId, now());
      return 'held';
    }
    if (capture.captureStatus !== 'COMPLETED') return `capture ${capture.captureStatus}`;
    const problems = captureProblems(capture, order, 'COMPLETED');
    if (problems.length > 0) {
      if (order.flag !== 'capture_mismatch')
        await flagOrderIn(tx, order.id, 'capture_mismatch', problems.join('; '), now());
      return 'mismatch';
    }
    credited = await creditCapture(
      tx,
      order,
      { paypalOrderId: capture.paypalOrderId, captureId: capture.captureId },
      actor,
      'PayPal payment found captured by reconciliation',
      now(),
    );
    return 'credited';
  });
  if (credited) await deps.notify(credited);
  return outcome;
}
