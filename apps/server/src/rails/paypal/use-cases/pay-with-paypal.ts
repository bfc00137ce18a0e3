import { isUniqueViolation } from '../../../db/postgres-errors';
import type { OrderRow, UserRow } from '../../../db/schema';
import { AppError } from '../../../http/errors';
import { isUuid } from '../../../http/ids';
import { findCustomerOrder, findOrder, flagOrder } from '../../../orders/order.repository';
import { customerPayoutHold } from '../../../payout-addresses/payout-destination';
import { findGlobalSettings } from '../../../settings/global-settings.repository';
import { paypalRail } from '../index';
import { PayPalError } from '../paypal-gateway';
import { linkPayPalOrder, recordPendingCapture } from '../paypal.repository';
import { captureProblems, creditCapture } from './credit-capture';
import type { PayPalDeps } from './paypal-deps';

/** Creates the PayPal order the customer approves, for their pending buy. */
export async function createPayment(
  deps: PayPalDeps,
  user: UserRow,
  orderId: string,
): Promise<{ id: string }> {
  const { db, gateway, now } = deps;
  const order = await payableOrder(deps, user, orderId);
  const settings = await findGlobalSettings(db);
  if (!paypalRail.isActive(settings))
    throw new AppError('BAD_REQUEST', 'PayPal is not available right now. Choose another method.');
  let created: { id: string };
  try {
    created = await gateway.createOrder({
      orderId: order.id,
      valueCents: order.valueCents,
      description: `OffZero order #${order.id.slice(0, 8)}`,
    });
  } catch (error) {
    providerFailure(deps, error);
  }
  try {
    await linkPayPalOrder(db, order.id, created.id, now());
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', 'This PayPal payment belongs to another order.');
    throw error;
  }
  return created;
}

/**
 * Captures the customer's approved payment; `held` when PayPal holds it (PENDING) for now, and
 * `payoutHold` when the bitcoin waits for its payout address instead (not confirmed yet...).
 */
export async function capturePayment(
  deps: PayPalDeps,
  user: UserRow,
  paypalOrderId: string,
  orderId: string,
): Promise<{ order: OrderRow; held: boolean; payoutHold?: string }> {
  const { db, gateway, log, notify, now } = deps;
  const order = await payableOrder(deps, user, orderId);
  if (order.paypalOrderId !== paypalOrderId)
    throw new AppError('BAD_REQUEST', 'This PayPal payment belongs to another order.');
  let capture;
  try {
    // The same request id for every try of this order: PayPal returns the first capture again.
    capture = await gateway.capture(paypalOrderId, `capture-${order.id}`);
  } catch (error) {
    providerFailure(deps, error);
  }
  // PayPal holds some payments (an eCheck, a review): the order waits for its completion event.
  if (capture.captureStatus === 'PENDING' && captureProblems(capture, order, 'PENDING').length === 0) {
    const held = await recordPendingCapture(db, order.id, capture.captureId!, now());
    return { order: held ?? (await findOrder(db, order.id)) ?? order, held: true };
  }
  const problems = captureProblems(capture, order, 'COMPLETED');
  if (problems.length > 0) {
    log.error({ orderId: order.id, paypalOrderId, problems }, 'paypal capture does not match the order');
    await flagOrder(
      db,
      order.id,
      { flag: 'capture_mismatch', flagNote: problems.join('; ') },
      now(),
      'system:paypal',
    );
    throw new AppError(
      'BAD_REQUEST',
      'PayPal did not confirm the full payment for this order. Our team will review it and contact you.',
    );
  }
  const captureId = capture.captureId!;
  try {
    const moved = await db.transaction((tx) =>
      creditCapture(
        tx,
        order,
        { paypalOrderId, captureId },
        `user:${user.id}`,
        'PayPal payment captured',
        now(),
      ),
    );
    await notify(moved);
    return { order: moved, held: false, payoutHold: await customerPayoutHold(db, moved, now()) };
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('CONFLICT', 'This PayPal payment was already used for another order.');
    throw error;
  }
}

async function payableOrder(deps: PayPalDeps, user: UserRow, orderId: string): Promise<OrderRow> {
  // Another customer's order id answers exactly like a missing one.
  const order = isUuid(orderId) ? await findCustomerOrder(deps.db, user.id, orderId) : undefined;
  if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
  if (order.type !== 'buy') throw new AppError('BAD_REQUEST', 'Only buy orders are paid with PayPal.');
  if (order.status !== 'pending')
    throw new AppError('CONFLICT', `This order is ${order.status}; it has already been paid or closed.`);
  if (order.quoteExpiresAt <= deps.now())
    throw new AppError('GONE', 'This quote has expired. Get a new quote to continue.');
  return order;
}

function providerFailure(deps: PayPalDeps, error: unknown): never {
  if (error instanceof PayPalError) {
    deps.log.warn({ err: error }, 'paypal refused');
    if (error.issue === 'ORDER_NOT_APPROVED')
      throw new AppError('BAD_REQUEST', 'Approve the payment in PayPal first.');
    if (error.issue === 'ORDER_ALREADY_CAPTURED')
      throw new AppError('CONFLICT', 'This PayPal payment was already used.');
    throw new AppError('UNAVAILABLE', 'PayPal could not take the payment just now. Try again in a minute.');
  }
  throw error;
}
