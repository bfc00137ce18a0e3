import type { Database, Transaction } from '../db/database';
import { orderEvents, type OrderRow, type PayoutRow } from '../db/schema';
import { findPayoutOfOrder } from './payout.repository';
import { recordSettledPayout } from './payout-state';

/** The return of this order's coins, if one was recorded: a payout row of purpose `refund`. */
export async function findBtcRefund(
  tx: Database | Transaction,
  orderId: string,
): Promise<PayoutRow | undefined> {
  return findPayoutOfOrder(tx, orderId, 'refund');
}

/**
 * Records the return, which staff made outside the server; one live refund per order (the unique index
 * makes a second one fail rather than count twice).
 */
export async function insertBtcRefund(
  tx: Transaction,
  refund: { orderId: string; address: string; txid: string; refundedBy: string },
): Promise<PayoutRow> {
  return recordSettledPayout(
    tx,
    {
      orderId: refund.orderId,
      purpose: 'refund',
      kind: 'btc',
      rail: 'onchain',
      sender: 'operator',
      address: refund.address,
      amountSats: null,
      createdBy: refund.refundedBy,
    },
    { txid: refund.txid, vout: null },
  );
}

/** Puts an event that changes no status into the order's timeline (from and to its current status). */
export async function recordOrderEvent(
  tx: Transaction,
  order: Pick<OrderRow, 'id' | 'status'>,
  event: { actor: string; reason: string; details: Record<string, unknown> },
): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: order.status,
    actor: event.actor,
    reason: event.reason,
    details: event.details,
  });
}
