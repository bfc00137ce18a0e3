import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/database';
import type { OrderRow, UserRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { isUniqueViolation } from '../../db/postgres-errors';
import { findGlobalSettings } from '../../settings/global-settings.repository';
import { customerPayoutHold } from '../../payout-addresses/payout-destination';
import { moveOrder } from '../../orders/order-state';
import { setTravelRulePaymentIdentifier } from '../../orders/travel-rule.repository';
import type { OrderNotifier } from '../../orders/order-notifications';
import { findCustomerOrder, findOrder, flagOrder, lockOrder } from '../../orders/order.repository';
import type { InboxService, StoredWebhook } from '../../inbox/inbox.service';
import { restrictCustomer } from '../../users/customer-restriction.repository';
import {
  PAYPAL_WEBHOOK_HEADERS,
  PayPalError,
  type PayPalCaptureResult,
  type PayPalGateway,
} from './paypal-gateway';
import { readPayPalWebhookEvent, type PayPalWebhookEvent } from './paypal-webhook-event';
import {
  findUnsettledPayPalOrders,
  flagOrderIn,
  flagPaymentReversed,
  linkPayPalOrder,
  lockOrderOfPayPalPayment,
  recordPendingCapture,
} from './paypal.repository';

/** The inbox provider name of PayPal's webhooks. */
export const PAYPAL_WEBHOOK_PROVIDER = 'paypal';
/** The reconciliation reads back PayPal orders created at least this long ago… */
const RECONCILE_AFTER_MS = 30 * 60_000;
/** …and at most this long ago (PayPal lets an unpaid order be captured for 3 days at most)… */
const RECONCILE_UNPAID_FOR_MS = 3 * 86_400_000;
/** …or this long for an order holding a PENDING capture (eChecks clear within days). */
const RECONCILE_HELD_FOR_MS = 30 * 86_400_000;
const RECONCILE_BATCH = 200;

/** What a PENDING capture tells the customer. */
export const PAYMENT_HELD_MESSAGE =
  'PayPal is holding this payment for review. We will send your bitcoin as soon as PayPal releases it.';

/** Why a capture cannot credit the order, if it cannot: nothing when it matches the order exactly. */
function captureProblems(capture: PayPalCaptureResult, order: OrderRow, captureStatus: string): string[] {
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
async function creditCapture(
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

/**
 * PayPal payments, created and captured by the server (docs/design.md). A capture counts only
 * when PayPal itself says it is COMPLETED for exactly the order's value in USD; one PayPal order and one
 * capture can pay one OffZero order, once.
 */
export function createPayPalService(deps: {
  db: Database;
  gateway: PayPalGateway;
  notify: OrderNotifier;
  /** Where verified webhooks are stored before they are answered, and applied from. */
  inbox: Pick<InboxService, 'receive' | 'register'>;
  log: FastifyBaseLogger;
  now?: () => Date;
}) {
  const { db, gateway, notify, log } = deps;
  const now = deps.now ?? (() => new Date());

  // A stored webhook is verified again (outside the transaction: it may ask PayPal), then applied by
  // the inbox's job in the transaction that marks it processed: applied once.
  deps.inbox.register<PayPalWebhookEvent>(
    PAYPAL_WEBHOOK_PROVIDER,
    (tx, _delivery, event) => applyWebhookEvent(tx, event),
    async (delivery: StoredWebhook) => {
      if (!(await gateway.verifyWebhook(delivery.rawBody, delivery.headers)))
        throw new Error('the stored webhook no longer verifies');
      const event = readPayPalWebhookEvent(delivery.rawBody);
      if (!event) throw new Error('the stored webhook is not a PayPal event');
      return event;
    },
  );

  /** Applies one verified PayPal event; answers the after-commit notice, if any. */
  async function applyWebhookEvent(
    tx: Transaction,
    event: PayPalWebhookEvent,
  ): Promise<(() => Promise<void>) | void> {
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

  /** Applies what PayPal says of one of our unsettled orders (the reconciliation job). */
  async function reconcileOrder(orderId: string, capture: PayPalCaptureResult): Promise<string> {
    const actor = 'system:paypal-reconcile';
    let credited: OrderRow | null = null;
    const outcome = await db.transaction(async (tx) => {
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
    if (credited) await notify(credited);
    return outcome;
  }

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

    /**
     * Captures the customer's approved payment; `held` when PayPal holds it (PENDING) for now, and
     * `payoutHold` when the bitcoin waits for its payout address instead (not confirmed yet...).
     */
    async capturePayment(
      user: UserRow,
      paypalOrderId: string,
      orderId: string,
    ): Promise<{ order: OrderRow; held: boolean; payoutHold?: string }> {
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
    },

    /**
     * A PayPal webhook: verified with PayPal (a forged or altered one answers 401), stored in the inbox
     * once per event id (a replay stores nothing) and applied by its job.
     */
    async receiveWebhook(rawBody: Buffer, headers: Record<string, unknown>): Promise<'stored' | 'replay'> {
      const kept: Record<string, string> = {};
      for (const name of PAYPAL_WEBHOOK_HEADERS) {
        const value = headers[name];
        if (typeof value === 'string') kept[name] = value;
      }
      let authentic: boolean;
      try {
        authentic = await gateway.verifyWebhook(rawBody, kept);
      } catch (error) {
        if (!(error instanceof PayPalError)) throw error;
        log.warn({ err: error }, 'paypal webhook could not be verified now');
        // PayPal sends it again later.
        throw new AppError('UNAVAILABLE', 'The signature cannot be checked right now. Send it again later.');
      }
      if (!authentic) {
        log.warn('paypal webhook with a bad signature refused');
        throw new AppError('UNAUTHENTICATED', 'Invalid signature.');
      }
      const event = readPayPalWebhookEvent(rawBody);
      if (!event) throw new AppError('BAD_REQUEST', 'The webhook body is not a PayPal event.');
      return deps.inbox.receive({
        provider: PAYPAL_WEBHOOK_PROVIDER,
        rawBody,
        headers: kept,
        deliveryKey: event.id,
      });
    },

    /**
     * The reconciliation job: reads back from PayPal every PayPal order created more than 30 minutes ago
     * and not settled, and applies what it finds — a capture completed whose answer was lost is
     * credited, one PayPal still holds is recorded, an abandoned one is left as it is.
     */
    async reconcile(): Promise<Record<string, number>> {
      const at = now().getTime();
      const due = await findUnsettledPayPalOrders(
        db,
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
          outcome = await reconcileOrder(id, await gateway.getOrder(paypalOrderId!));
        } catch (error) {
          // One order PayPal cannot answer now does not stop the others; the next run tries again.
          log.warn({ err: error, orderId: id, paypalOrderId }, 'paypal reconciliation of an order failed');
          outcome = 'error';
        }
        outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      }
      return outcomes;
    },
  };
}

export type PayPalService = ReturnType<typeof createPayPalService>;
