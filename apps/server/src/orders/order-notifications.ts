import { eq } from 'drizzle-orm';
import { formatBtc, formatUsd } from '@offzero/shared/money/money';
import type { Transaction } from '../db/database';
import { users, userSettings, type OrderRow } from '../db/schema';
import { writeOutbox, type OutboxEntry } from '../outbox/outbox.repository';
import type { OutboxService } from '../outbox/outbox.service';
import { toOrderResponse } from './order.presenter';
import { paysOutByLightning } from '../rails/lightning/lightning-destination';
import { lightningPayoutOfOrder } from '../rails/lightning/lightning-payout.presenter';

const statusSentence: Record<OrderRow['status'], string> = {
  pending: 'is waiting for your payment',
  processing: 'is being processed',
  completed: 'is complete',
  expired: 'has expired',
  cancelled: 'was cancelled',
};

/** The web app's page of one order (My Orders with its details drawer open, which offers the receipt). */
export function orderPagePath(orderId: string): string {
  return `/orders?order=${encodeURIComponent(orderId)}`;
}

/**
 * Writes what the customer is told about a change of their order into the outbox, in the transaction
 * of the change: their open pages (realtime `order-updated`, the order as it now is) and, with
 * `messages`, an e-mail and/or SMS as their notification toggles allow. `eventKey` names the change:
 * writing it twice delivers once.
 */
export async function recordOrderNotices(
  tx: Transaction,
  order: OrderRow,
  options: { eventKey: string; messages: boolean },
): Promise<void> {
  const { eventKey } = options;
  // A Lightning buy's open pages see its payout and proof change with the order.
  const lightningPayout = paysOutByLightning(order) ? await lightningPayoutOfOrder(tx, order) : undefined;
  const entries: OutboxEntry[] = [
    {
      eventKey,
      channel: 'realtime',
      recipient: order.userId,
      userId: order.userId,
      payload: {
        type: 'order-updated',
        payload: { order: toOrderResponse(order, undefined, lightningPayout) },
      },
    },
  ];
  if (options.messages) {
    const [row] = await tx
      .select({
        email: users.email,
        phone: users.phoneNumber,
        phoneVerified: users.phoneVerified,
        prefs: userSettings,
      })
      .from(users)
      .leftJoin(userSettings, eq(userSettings.userId, users.id))
      .where(eq(users.id, order.userId));
    if (row) {
      const shortId = order.id.slice(0, 8);
      const amount = `${formatBtc(order.amountSats, order.type === 'buy' ? 6 : 8)} BTC for $${formatUsd(order.valueCents)}`;
      const sentence = `Your OffZero ${order.type} order #${shortId} (${amount}) ${statusSentence[order.status]}.`;
      const detail = order.status === 'completed' && order.txn ? ` Transaction: ${order.txn}` : '';
      if (row.prefs?.receiveEmail ?? true) {
        entries.push({
          eventKey,
          channel: 'email',
          recipient: row.email,
          userId: order.userId,
          payload: {
            subject: `Order #${shortId} ${statusSentence[order.status]}`,
            text: sentence + detail,
            // A completed order's e-mail leads to its receipt: the order's details on My Orders, where
            // the customer signs in first (the PDF itself is never reachable without a session).
            ...(order.status === 'completed'
              ? { link: { label: 'Your receipt', path: orderPagePath(order.id) } }
              : {}),
          },
        });
      }
      if ((row.prefs?.receiveSms ?? true) && row.phone && row.phoneVerified) {
        entries.push({
          eventKey,
          channel: 'sms',
          recipient: row.phone,
          userId: order.userId,
          payload: { subject: `Order #${shortId}`, text: sentence },
        });
      }
    }
  }
  await writeOutbox(tx, entries);
}

/**
 * Called once a change of the order is committed: delivers at once what the change wrote into the
 * outbox (`recordOrderNotices`) for its customer. A delivery failure never undoes the change; the
 * `deliver-outbox` job tries again.
 */
export function createOrderNotifier(outbox: Pick<OutboxService, 'deliverForUser'>) {
  return async function notifyOrderStatus(order: Pick<OrderRow, 'userId'>): Promise<void> {
    await outbox.deliverForUser(order.userId);
  };
}

export type OrderNotifier = ReturnType<typeof createOrderNotifier>;
