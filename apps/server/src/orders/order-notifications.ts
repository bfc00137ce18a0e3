import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatBtc, formatUsd } from '@offzero/shared/money/money';
import type { Database } from '../db/database';
import { users, userSettings, type OrderRow } from '../db/schema';
import type { NotificationSender } from '../notifications/notification-sender';
import type { EventBus } from '../realtime/event-bus';
import { toOrderResponse } from './order.presenter';

const statusSentence: Record<OrderRow['status'], string> = {
  pending: 'is waiting for your payment',
  processing: 'is being processed',
  completed: 'is complete',
  expired: 'has expired',
  cancelled: 'was cancelled',
};

/**
 * Tells the customer about a state change: their open pages at once (realtime `order-updated`), and
 * by e-mail and/or SMS as their notification toggles allow. A delivery failure is logged, never
 * allowed to undo the change itself.
 */
export function createOrderNotifier(
  db: Database,
  notifications: NotificationSender,
  bus: EventBus,
  log: FastifyBaseLogger,
) {
  return async function notifyOrderStatus(order: OrderRow): Promise<void> {
    await bus
      .publish(order.userId, { type: 'order-updated', payload: { order: toOrderResponse(order) } })
      .catch((error: unknown) => log.warn({ err: error, orderId: order.id }, 'realtime publish failed'));
    try {
      const [row] = await db
        .select({
          email: users.email,
          phone: users.phoneNumber,
          phoneVerified: users.phoneVerified,
          prefs: userSettings,
        })
        .from(users)
        .leftJoin(userSettings, eq(userSettings.userId, users.id))
        .where(eq(users.id, order.userId));
      if (!row) return;
      const shortId = order.id.slice(0, 8);
      const amount = `${formatBtc(order.amountSats, order.type === 'buy' ? 6 : 8)} BTC for $${formatUsd(order.valueCents)}`;
      const sentence = `Your OffZero ${order.type} order #${shortId} (${amount}) ${statusSentence[order.status]}.`;
      const detail = order.status === 'completed' && order.txn ? ` Transaction: ${order.txn}` : '';
      if (row.prefs?.receiveEmail ?? true) {
        await notifications.email.send({
          to: row.email,
          subject: `Order #${shortId} ${statusSentence[order.status]}`,
          text: sentence + detail,
        });
      }
      if ((row.prefs?.receiveSms ?? true) && row.phone && row.phoneVerified) {
        await notifications.sms.send({ to: row.phone, subject: `Order #${shortId}`, text: sentence });
      }
    } catch (error) {
      log.error({ err: error, orderId: order.id }, 'order notification failed');
    }
  };
}

export type OrderNotifier = ReturnType<typeof createOrderNotifier>;
