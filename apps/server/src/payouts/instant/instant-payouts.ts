import type { BankProvider, BankTransfer } from '../../bank/bank-provider';
import type { Database, Transaction } from '../../db/database';
import { orderEvents, orders, type OrderRow, type PayoutRow } from '../../db/schema';
import { eq } from 'drizzle-orm';
import type { JobQueue } from '../../jobs/job-queue';
import type { OrderNotifier } from '../../orders/order-notifications';
import { moveOrder, recordFlagChange } from '../../orders/order-state';
import { lockOrder } from '../../orders/order.repository';
import { writeOutbox } from '../../outbox/outbox.repository';
import { INSTANT_PAYOUT_ACTOR, sendInstantTransfer } from '../../rails/instant/bank-api-payout-sender';
import { isDueSellPayout } from '../due-sell-payouts.repository';
import { claimPayout, movePayout, notePayoutReference } from '../payout-state';
import {
  countPayoutsOfOrder,
  findDueInstantSells,
  findBankApiPayoutByReference,
  findEmailOf,
  findInstantPayoutsInFlight,
  findPayoutById,
  lockPayout,
} from './instant-payout.repository';

export interface InstantPayoutDeps {
  db: Database;
  bank: Pick<BankProvider, 'createTransfer' | 'lookUpRoutingNumber' | 'getTransfer'>;
  confirmationsRequired: number;
  notify: OrderNotifier;
  now?: () => Date;
}

/** The job that sends due instant payouts (kicked when a sell may be due, else a slow backstop). */
export const INSTANT_PAYOUTS_JOB = 'instant-payouts';

/**
 * Queues a pass of instant payouts when an instant sell changed and may now be due (its deposit
 * credited or confirmed), so the dollars leave at once instead of at the next backstop run. One
 * queued run per order, worked by whichever process works jobs.
 */
export function kickInstantPayouts(
  queue: Pick<JobQueue, 'send'>,
  log: { warn(obj: object, msg: string): void },
) {
  type Changed = Pick<OrderRow, 'userId'> &
    Partial<Pick<OrderRow, 'id' | 'type' | 'paymentMethod' | 'status' | 'flag'>>;
  return (order: Changed): void => {
    if (!order.id || order.type !== 'sell' || order.paymentMethod !== 'instant') return;
    if (order.status !== 'processing' || order.flag) return;
    void queue
      .send(INSTANT_PAYOUTS_JOB, null, { singletonKey: order.id })
      .catch((error: unknown) => log.warn({ err: error }, 'instant payout pass could not be queued'));
  };
}

/** A payout claimed but with no transfer recorded this long is sent again with the same key. */
export const UNRECORDED_RESEND_MS = 10_000;

/**
 * One pass of instant payouts (docs/design.md, "Instant payouts"), safe in several processes at once:
 * claims and sends each due payout, sends again (same idempotency key, so the same transfer) any
 * claimed one whose transfer was never recorded, and reads back from the bank those in flight.
 */
export async function runInstantPayouts(deps: InstantPayoutDeps): Promise<{ sent: number; ended: number }> {
  const now = deps.now?.() ?? new Date();
  let sent = 0;
  for (const orderId of await findDueInstantSells(deps.db, deps.confirmationsRequired)) {
    const claimed = await claimInstantPayout(deps, orderId);
    if (claimed && (await sendAndRecord(deps, claimed.payout, claimed.order))) sent += 1;
  }
  const unrecorded = await findInstantPayoutsInFlight(deps.db, {
    recorded: false,
    unrecordedBefore: new Date(now.getTime() - UNRECORDED_RESEND_MS),
  });
  for (const payout of unrecorded) {
    const [order] = await deps.db.select().from(orders).where(eq(orders.id, payout.orderId));
    if (order && (await sendAndRecord(deps, payout, order))) sent += 1;
  }
  let ended = 0;
  const inFlight = await findInstantPayoutsInFlight(deps.db, { recorded: true, unrecordedBefore: now });
  for (const payout of inFlight) {
    const transfer = await deps.bank.getTransfer(payout.reference!);
    if (await applyTransfer(deps, payout.id, transfer)) ended += 1;
  }
  return { sent, ended };
}

/**
 * Claims an order's first payout (`submitted`, sender `bank-api`) in the transaction that checks it is
 * due, under the order's lock; it commits before any money moves. Null when it is not (or no longer) due.
 */
export async function claimInstantPayout(
  deps: InstantPayoutDeps,
  orderId: string,
): Promise<{ payout: PayoutRow; order: OrderRow } | null> {
  return deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, orderId);
    const rule = { rail: 'instant' as const, confirmationsRequired: deps.confirmationsRequired };
    if (!order || !isDueSellPayout(order, rule)) return null;
    // A second payout (after a return) is staff's to approve, never the server's to send.
    if ((await countPayoutsOfOrder(tx, order.id)) > 0) return null;
    const payout = await claimPayout(
      tx,
      {
        orderId: order.id,
        kind: 'usd',
        rail: 'instant',
        sender: 'bank-api',
        address: null,
        amountSats: null,
        createdBy: INSTANT_PAYOUT_ACTOR,
      },
      'submitted',
    );
    await recordPayoutEvent(
      tx,
      order,
      payout,
      { event: 'payout_sent', rail: 'instant' },
      'instant payout sent to the bank',
    );
    return { payout, order };
  });
}

/** Sends (or finds again) the payout's transfer and records what the bank said. */
async function sendAndRecord(deps: InstantPayoutDeps, payout: PayoutRow, order: OrderRow): Promise<boolean> {
  const transfer = await sendInstantTransfer(deps.bank, payout, order);
  await applyTransfer(deps, payout.id, transfer);
  return true;
}

/**
 * Records a transfer's state on its payout and notifies the customer once it committed. True when the
 * payout ended here.
 */
export async function applyTransfer(
  deps: InstantPayoutDeps,
  payoutId: string,
  transfer: BankTransfer,
): Promise<boolean> {
  const result = await deps.db.transaction((tx) => applyTransferIn(tx, payoutId, transfer));
  if (result) await deps.notify(result);
  return result !== null;
}

/**
 * The bank's `transfer_updated` webhook (read back from the bank, applied once in the inbox's
 * transaction): the instant payout holding that transfer ends at once; the periodic read-back is only
 * the backstop for a lost webhook. Transfers of other features are left to them.
 */
export function applyTransferUpdate(notify: OrderNotifier) {
  return async (tx: Transaction, transfer: BankTransfer): Promise<(() => Promise<void>) | void> => {
    const payout = await findBankApiPayoutByReference(tx, transfer.id);
    if (!payout) return undefined;
    const ended = await applyTransferIn(tx, payout.id, transfer);
    return ended ? () => notify(ended) : undefined;
  };
}

/**
 * Records a transfer's state on its payout, under the order's lock: its id while it is on its way;
 * settled → the payout settles and the order completes; rejected (a closed account) or returned → the
 * payout is `returned` (the state machine's word for money the rail gave back), the order is flagged
 * `payout_returned` (a case opens from the flag) and the customer e-mailed. A payout already ended is
 * left as it is. The order when the payout ended here, else null.
 */
export async function applyTransferIn(
  tx: Transaction,
  payoutId: string,
  transfer: BankTransfer,
): Promise<OrderRow | null> {
  const known = await findPayoutById(tx, payoutId);
  if (!known) return null;
  const order = await lockOrder(tx, known.orderId);
  const payout = await lockPayout(tx, payoutId);
  if (!order || !payout || payout.state !== 'submitted') return null;
  const noted = payout.reference ? payout : await notePayoutReference(tx, payout, transfer.id);
  if (transfer.status === 'settled') {
    await movePayout(tx, noted, 'settled', { reference: transfer.id });
    return moveOrder(tx, {
      orderId: order.id,
      from: ['processing'],
      to: 'completed',
      actor: INSTANT_PAYOUT_ACTOR,
      reason: 'dollars paid instantly',
      patch: { bankTxn: transfer.traceNumber ?? transfer.id },
      details: { reference: transfer.id, rail: 'instant' },
    });
  }
  if (transfer.status === 'rejected' || transfer.status === 'returned') {
    await movePayout(tx, noted, 'returned', { reference: transfer.id });
    return flagReturned(tx, order, transfer);
  }
  return null;
}

async function flagReturned(tx: Transaction, order: OrderRow, transfer: BankTransfer): Promise<OrderRow> {
  const note = `instant payout ${transfer.id} ${transfer.status} by the bank (${transfer.returnCode ?? 'no code'})`;
  const [flagged] = await tx
    .update(orders)
    .set({ flag: 'payout_returned', flagNote: note, updatedAt: new Date() })
    .where(eq(orders.id, order.id))
    .returning();
  if (!flagged) throw new Error(`order ${order.id} vanished`);
  await recordFlagChange(tx, { before: order, after: flagged, actor: INSTANT_PAYOUT_ACTOR });
  const email = await findEmailOf(tx, order.userId);
  if (email) {
    await writeOutbox(tx, [
      {
        eventKey: `instant-payout-returned:${transfer.id}`,
        channel: 'email',
        recipient: email,
        userId: order.userId,
        payload: {
          subject: 'Your bank did not accept your payout',
          text:
            `Your bank did not accept the instant payout of sell order #${order.id.slice(0, 8)}, so the money ` +
            'came back to us. Please check the bank account in your settings; our team will contact you to ' +
            'pay you again.',
        },
      },
    ]);
  }
  return flagged;
}

async function recordPayoutEvent(
  tx: Transaction,
  order: OrderRow,
  payout: PayoutRow,
  details: Record<string, unknown>,
  reason: string,
): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: order.status,
    actor: payout.createdBy,
    reason,
    details: { ...details, payoutId: payout.id },
  });
}
