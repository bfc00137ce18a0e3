import { and, eq, isNull } from 'drizzle-orm';
import { formatBtc, satsToBtcNumber } from '@offzero/shared/money/money';
import type { Database, Transaction } from '../../../db/database';
import { orders, type OrderRow } from '../../../db/schema';
import { recordOrderNotices } from '../../../orders/order-notifications';
import { moveOrder } from '../../../orders/order-state';
import { flagOrder } from '../../../orders/order.repository';
import { writeOutbox } from '../../../outbox/outbox.repository';

export interface LightningCreditDeps {
  db: Database;
  /** Confirmations a sell deposit needs: a settled Lightning payment counts as all of them at once. */
  confirmationsRequired: number;
  now: () => Date;
}

/**
 * Credits a sell whose invoice the node reports paid (docs/design.md, "Lightning"), once: the first
 * report sets `lightningPaidAt` under the order's lock, every later one (webhook again, the reconcile
 * job, another process) finds it set and does nothing. Whichever of invoice and address is paid first
 * credits the order; when the on-chain deposit came first, this payment is extra: the order is
 * flagged `extra_deposit` for staff to return it, and never credited twice. Answers the order as it
 * now is, or null when nothing changed.
 */
export async function creditLightningPayment(
  deps: LightningCreditDeps,
  paymentHash: string,
  receivedSats: bigint,
  /** The payment's preimage, when the node tells it: kept as the sell's proof of payment. */
  preimage: string | null = null,
): Promise<OrderRow | null> {
  return deps.db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(orders)
      .where(eq(orders.lightningPaymentHash, paymentHash))
      .for('update');
    if (!current || current.lightningPaidAt) return null;
    const now = deps.now();
    const [paid] = await tx
      .update(orders)
      .set({ lightningPaidAt: now })
      .where(and(eq(orders.id, current.id), isNull(orders.lightningPaidAt)))
      .returning();
    if (!paid) return null;
    await announcePayment(tx, paid, paymentHash, receivedSats);
    const paidOnChainFirst = (current.receivedSats ?? 0n) > 0n;
    if ((current.status === 'pending' || current.status === 'expired') && !paidOnChainFirst) {
      return moveOrder(tx, {
        orderId: current.id,
        from: ['pending', 'expired'],
        to: 'processing',
        actor: 'system:lightning',
        reason: 'paid by Lightning',
        patch: {
          txn: paymentHash,
          lightningPreimage: preimage,
          confirmations: deps.confirmationsRequired,
          receivedSats,
          ...(receivedSats > current.amountSats
            ? { flag: 'overpaid' as const, flagNote: overpaidNote(current, receivedSats) }
            : {}),
        },
        details: { paymentHash, receivedSats: receivedSats.toString(), rail: 'lightning' },
      });
    }
    return flagExtraPayment(tx, paid, paymentHash, receivedSats, now);
  });
}

function overpaidNote(order: OrderRow, receivedSats: bigint): string {
  return `Lightning paid ${formatBtc(receivedSats)} BTC for an invoice of ${formatBtc(order.amountSats)} BTC`;
}

/** The customer's realtime "new transaction" toast, as an on-chain deposit gives. */
async function announcePayment(
  tx: Transaction,
  order: OrderRow,
  paymentHash: string,
  receivedSats: bigint,
): Promise<void> {
  await writeOutbox(tx, [
    {
      eventKey: `lightning-credit:${order.id}:${paymentHash}`,
      channel: 'realtime',
      recipient: order.userId,
      userId: order.userId,
      payload: {
        type: 'new-transaction',
        payload: { amount: satsToBtcNumber(receivedSats), _id: order.id, txn: paymentHash },
      },
    },
  ]);
}

/** A payment to an order already paid on chain, or closed: kept, flagged for staff to send it back. */
async function flagExtraPayment(
  tx: Transaction,
  order: OrderRow,
  paymentHash: string,
  receivedSats: bigint,
  now: Date,
): Promise<OrderRow | null> {
  const note = `a Lightning payment of ${formatBtc(receivedSats)} BTC (payment hash ${paymentHash}) arrived for an order already paid on chain or closed; return it to the customer`;
  const flagged = await flagOrder(
    tx,
    order.id,
    { flag: 'extra_deposit', flagNote: order.flagNote ? `${order.flagNote}; ${note}` : note },
    now,
    'system:lightning',
  );
  if (!flagged) return null;
  await recordOrderNotices(tx, flagged, {
    eventKey: `lightning-extra:${order.id}:${paymentHash}`,
    messages: false,
  });
  return flagged;
}
