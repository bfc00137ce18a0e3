import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { OrderRow, UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import { isUuid } from '../http/ids';
import { isUniqueViolation } from '../db/postgres-errors';
import { findGlobalSettings } from '../settings/global-settings.repository';
import { moveOrder } from '../orders/order-state';
import type { OrderNotifier } from '../orders/order-notifications';
import { findCustomerOrder, flagOrder } from '../orders/order.repository';
import { PayPalError, type PayPalGateway } from './paypal-gateway';
import { linkPayPalOrder } from './paypal.repository';

/**
 * PayPal payments, created and captured by the server (DESIGN.md section 2). A capture counts only
 * when PayPal itself says it is COMPLETED for exactly the order's value in USD; one PayPal order and one
 * capture can pay one OffZero order, once.
 */
export function createPayPalService(deps: {
  db: Database;
  gateway: PayPalGateway;
  notify: OrderNotifier;
  log: FastifyBaseLogger;
  now?: () => Date;
}) {
  const { db, gateway, notify, log } = deps;
  const now = deps.now ?? (() => new Date());

  async function payableOrder(user: UserRow, orderId: string): Promise<OrderRow> {
    // Another customer's order id answers exactly like a missing one.
    const order = isUuid(orderId) ? await findCustomerOrder(db, user.id, orderId) : undefined;
    if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
    if (order.type !== 'buy') throw new AppError('BAD_REQUEST', 'Only buy orders are paid with PayPal.');
    if (order.status !== 'pending')
      throw new AppError('CONFLICT', `This order is ${order.status}; it has already been paid or closed.`);
    if (order.quoteExpiresAt <= now())
      throw new AppError('GONE', 'This quote has expired. Get a new quote to continue.');
    return order;
  }

  function providerFailure(error: unknown): never {
    if (error instanceof PayPalError) {
      log.warn({ err: error }, 'paypal refused');
      if (error.issue === 'ORDER_NOT_APPROVED')
        throw new AppError('BAD_REQUEST', 'Approve the payment in PayPal first.');
      if (error.issue === 'ORDER_ALREADY_CAPTURED')
        throw new AppError('CONFLICT', 'This PayPal payment was already used.');
      throw new AppError('UNAVAILABLE', 'PayPal could not take the payment just now. Try again in a minute.');
    }
    throw error;
  }

  return {
    gatewayKind: gateway.kind,

    async createPayment(user: UserRow, orderId: string): Promise<{ id: string }> {
      const order = await payableOrder(user, orderId);
      const settings = await findGlobalSettings(db);
      if (!settings.paypalActive)
        throw new AppError('BAD_REQUEST', 'PayPal is not available right now. Choose another method.');
      let created: { id: string };
      try {
        created = await gateway.createOrder({
          orderId: order.id,
          valueCents: order.valueCents,
          description: `OffZero order #${order.id.slice(0, 8)}`,
        });
      } catch (error) {
        providerFailure(error);
      }
      try {
        await linkPayPalOrder(db, order.id, created.id, now());
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError('CONFLICT', 'This PayPal payment belongs to another order.');
        throw error;
      }
      return created;
    },

    async capturePayment(user: UserRow, paypalOrderId: string, orderId: string): Promise<OrderRow> {
      const order = await payableOrder(user, orderId);
      if (order.paypalOrderId !== paypalOrderId)
        throw new AppError('BAD_REQUEST', 'This PayPal payment belongs to another order.');
      let capture;
      try {
        // The same request id for every try of this order: PayPal returns the first capture again.
        capture = await gateway.capture(paypalOrderId, `capture-${order.id}`);
      } catch (error) {
        providerFailure(error);
      }
      const problems: string[] = [];
      if (capture.status !== 'COMPLETED' || capture.captureStatus !== 'COMPLETED' || !capture.captureId)
        problems.push(`status ${capture.status}`);
      if (capture.currency !== 'USD' || capture.amountCents !== order.valueCents) {
        problems.push(
          `captured ${capture.amountCents ?? '?'} ${capture.currency ?? '?'} cents for ${order.valueCents}`,
        );
      }
      if (capture.referenceId !== order.id) problems.push('reference does not match the order');
      if (problems.length > 0) {
        log.error({ orderId: order.id, paypalOrderId, problems }, 'paypal capture does not match the order');
        await flagOrder(db, order.id, { flag: 'capture_mismatch', flagNote: problems.join('; ') }, now());
        throw new AppError(
          'BAD_REQUEST',
          'PayPal did not confirm the full payment for this order. Our team will review it and contact you.',
        );
      }
      const captureId = capture.captureId!;
      try {
        const moved = await db.transaction((tx) =>
          moveOrder(tx, {
            orderId: order.id,
            from: ['pending'],
            to: 'processing',
            actor: `user:${user.id}`,
            reason: 'PayPal payment captured',
            patch: {
              paymentMethod: 'paypal',
              paypalCaptureId: captureId,
              bankTxn: captureId,
              paymentSubmittedAt: now(),
              paymentConfirmedAt: now(),
              paymentConfirmedBy: 'paypal',
            },
            details: { paypalOrderId, captureId },
          }),
        );
        await notify(moved);
        return moved;
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError('CONFLICT', 'This PayPal payment was already used for another order.');
        throw error;
      }
    },
  };
}

export type PayPalService = ReturnType<typeof createPayPalService>;
