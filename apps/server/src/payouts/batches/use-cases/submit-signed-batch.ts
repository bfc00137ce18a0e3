import type { SignedInUser } from '../../../auth/sessions';
import { TransactionRejectedError } from '../../../chain/chain-api';
import { recordAdminAction } from '../../../admin/admin-audit.repository';
import { findPayoutOfOrder } from '../../payout.repository';
import { claimPayout, movePayout, replaceSettledOutput, takeBackBatchClaims } from '../../payout-state';
import { adminActor } from '../payout-batch-deps';
import type { Transaction } from '../../../db/database';
import type { OrderRow, PayoutBatchOrderRow, PayoutBatchRow } from '../../../db/schema';
import { AppError } from '../../../http/errors';
import { recordOrderNotices } from '../../../orders/order-notifications';
import { moveOrder } from '../../../orders/order-state';
import {
  lockBatch,
  lockOrders,
  recordBatchVouts,
  recordReplacedPayout,
  updateBatch,
  type BatchWithOrders,
} from '../payout-batch.repository';
import { requireWallet, type PayoutBatchDeps } from '../payout-batch-deps';
import { checkSignedPsbt } from '../payout-psbt';
import { batchDestination } from './batch-destination';
import { planOf } from './batch-plan';

/**
 * The operator's wallet signed the batch's PSBT: check it, claim, broadcast, record (docs/design.md).
 * 1. One transaction checks that the signed transaction is exactly the batch (same coins, same outputs,
 *    same change), that every order may still be paid at its output's address under every payout rule
 *    (else the whole upload is refused, naming each order), and records the intent: the signed transaction
 *    and its txid on the batch (`broadcasting`) and a `submitted` payout per order. Of two uploads at once,
 *    the second waits for the first and then sees the batch taken.
 * 2. The transaction is handed to the network. Sending it again is harmless (same txid), so an upload
 *    that finds the batch `broadcasting` (a crash, a timeout) simply sends the recorded one again.
 * 3. A second transaction records (txid, vout) per order and completes the orders, with their notices.
 * A fee-bumped version pays orders that are already complete: their payout and `txn` follow the new txid.
 */
export async function submitSignedBatch(
  deps: PayoutBatchDeps,
  request: SubmitRequest,
): Promise<BatchWithOrders> {
  const intent = await claimBatch(deps, request);
  if (intent.done) return intent.done;
  const { batch } = intent.send;
  await broadcastBatch(deps, batch);
  return recordBroadcast(deps, request, batch);
}

type SubmitRequest = { staff: SignedInUser; batchId: string; psbt: string };

/** Step 1: check the signed transaction and every order, and claim the payouts (or find them claimed). */
async function claimBatch(
  deps: PayoutBatchDeps,
  request: SubmitRequest,
): Promise<{ done: BatchWithOrders; send: undefined } | { send: BatchWithOrders; done: undefined }> {
  const wallet = requireWallet(deps);
  const actor = adminActor(request.staff);
  return deps.db.transaction(async (tx) => {
    const current = await lockBatch(tx, request.batchId);
    if (!current) throw new AppError('NOT_FOUND', 'Payout batch not found.');
    const checked = checkSignedPsbt(wallet, planOf(wallet, current), request.psbt);
    const { batch } = current;

    if (batch.status === 'broadcast' || batch.status === 'confirmed') {
      if (batch.txid === checked.txid) return { done: current, send: undefined };
      throw new AppError('CONFLICT', `This batch was already broadcast as transaction ${batch.txid ?? ''}.`);
    }
    if (batch.status === 'broadcasting') {
      if (batch.txid !== checked.txid) {
        throw new AppError(
          'CONFLICT',
          `This batch is being broadcast as transaction ${batch.txid ?? ''}; upload that same signed PSBT to finish it.`,
        );
      }
      return { send: current, done: undefined };
    }
    if (batch.status !== 'awaiting_signature') {
      throw new AppError('CONFLICT', `This batch is ${batch.status}; it cannot be signed any more.`);
    }

    if (batch.replacesBatchId) {
      const replaced = await lockBatch(tx, batch.replacesBatchId);
      if (replaced?.batch.status !== 'broadcast') {
        throw new AppError(
          'CONFLICT',
          `The batch this fee bump replaces is ${replaced?.batch.status ?? 'gone'}: the fee bump is no longer needed.`,
        );
      }
    } else {
      const orders = await lockOrders(
        tx,
        current.orders.map((row) => row.orderId),
      );
      const now = new Date();
      const refusals: string[] = [];
      for (const row of current.orders) {
        const order = orders.find((candidate) => candidate.id === row.orderId);
        const problem = await whyNotPayable(deps, tx, order, row, now);
        if (problem) refusals.push(`Order #${row.orderId.slice(0, 8)} ${problem}`);
      }
      if (refusals.length > 0) {
        throw new AppError(
          'CONFLICT',
          `${refusals.join(' ')} Nothing was broadcast: abandon this batch and build a new one.`,
        );
      }
      for (const row of current.orders) {
        await claimPayout(
          tx,
          {
            orderId: row.orderId,
            kind: 'btc',
            rail: 'onchain',
            sender: 'batch',
            address: row.address,
            amountSats: row.amountSats,
            createdBy: actor,
            // Each intent names its batch, so a refused broadcast can take them back.
            batchId: batch.id,
          },
          'submitted',
        );
      }
    }
    await recordBatchVouts(
      tx,
      batch.id,
      current.orders.map((row, position) => ({ orderId: row.orderId, vout: checked.payoutVouts[position]! })),
    );
    const updated = await updateBatch(tx, batch.id, {
      status: 'broadcasting',
      signedTxHex: checked.txHex,
      txid: checked.txid,
    });
    await recordAdminAction(tx, request.staff, {
      action: 'payout_batch.signed',
      targetType: 'payout_batch',
      targetId: batch.id,
      before: { status: batch.status },
      after: { status: 'broadcasting', txid: checked.txid },
    });
    return { send: { batch: updated, orders: current.orders }, done: undefined };
  });
}

/** Step 2: hands the recorded transaction to the network; a refusal takes the claims back. */
async function broadcastBatch(deps: PayoutBatchDeps, batch: PayoutBatchRow): Promise<void> {
  try {
    await deps.chain.broadcast(batch.signedTxHex ?? '');
  } catch (error) {
    if (error instanceof TransactionRejectedError) {
      // Already on the network (a retry after the first broadcast went through)? Then go on.
      const known = await deps.chain.transactionStatus(batch.txid ?? '').catch(() => null);
      if (!known) {
        await deps.db.transaction(async (tx) => {
          await lockBatch(tx, batch.id);
          await takeBackBatchClaims(tx, batch.id);
          await updateBatch(tx, batch.id, { status: 'awaiting_signature', signedTxHex: null, txid: null });
        });
        throw new AppError('BAD_REQUEST', `The network refused the signed transaction: ${error.message}`);
      }
    } else {
      throw new AppError(
        'UNAVAILABLE',
        'The transaction may or may not have reached the network. Upload the same signed PSBT again: it is ' +
          'safe, the same transaction is sent and nothing is paid twice.',
      );
    }
  }
}

/** Step 3: records each order's output and completes the orders (or follows a fee bump), then tells them. */
async function recordBroadcast(
  deps: PayoutBatchDeps,
  request: SubmitRequest,
  batch: PayoutBatchRow,
): Promise<BatchWithOrders> {
  const actor = adminActor(request.staff);
  const changed: OrderRow[] = [];
  const finished = await deps.db.transaction(async (tx) => {
    const current = await lockBatch(tx, batch.id);
    if (!current) throw new Error('payout batch vanished');
    if (current.batch.status !== 'broadcasting') return current;
    const txid = current.batch.txid ?? '';
    const orders = await lockOrders(
      tx,
      current.orders.map((row) => row.orderId),
    );
    for (const row of current.orders) {
      const order = orders.find((candidate) => candidate.id === row.orderId);
      const payout = await findPayoutOfOrder(tx, row.orderId);
      if (!order || !payout || row.vout === null)
        throw new Error(`batch ${batch.id} lost order ${row.orderId}`);
      if (current.batch.replacesBatchId) {
        // A fee bump pays orders already settled by the batch it replaces: their result follows it.
        await replaceSettledOutput(tx, payout, { txid, vout: row.vout });
        const updated = await recordReplacedPayout(tx, order, { txid, vout: row.vout, actor });
        await recordOrderNotices(tx, updated, {
          eventKey: `payout-bump:${batch.id}:${order.id}`,
          messages: false,
        });
        changed.push(updated);
      } else {
        await movePayout(tx, payout, 'settled', { txid, vout: row.vout });
        changed.push(
          await moveOrder(tx, {
            orderId: order.id,
            from: ['processing'],
            to: 'completed',
            actor,
            reason: 'bitcoin sent to the customer',
            patch: { txn: txid },
            details: { txid, vout: row.vout, batchId: batch.id },
          }),
        );
      }
    }
    if (current.batch.replacesBatchId) {
      await updateBatch(tx, current.batch.replacesBatchId, { status: 'replaced' });
    }
    const updated = await updateBatch(tx, batch.id, { status: 'broadcast', broadcastAt: new Date() });
    await recordAdminAction(tx, request.staff, {
      action: 'payout_batch.broadcast',
      targetType: 'payout_batch',
      targetId: batch.id,
      after: { status: 'broadcast', txid, orderIds: current.orders.map((row) => row.orderId) },
    });
    return { batch: updated, orders: current.orders };
  });
  for (const order of changed) await deps.notify(order);
  return finished;
}

/**
 * Why the batch may not pay this order any more (a sentence following "Order #…"), or null. Asked again
 * at upload with the rules of the build: between the two the order may have been flagged, cancelled or
 * paid, the customer may have removed or replaced the address, and the sanctions list may name it.
 */
async function whyNotPayable(
  deps: PayoutBatchDeps,
  tx: Transaction,
  order: OrderRow | undefined,
  row: PayoutBatchOrderRow,
  now: Date,
): Promise<string | null> {
  if (!order) return 'is gone.';
  if (order.flag) return `was flagged (${order.flag}) since the batch was built.`;
  if (order.status !== 'processing' || !order.paymentConfirmedAt) return `is ${order.status} now.`;
  if (await findPayoutOfOrder(tx, order.id)) return 'was already paid out.';
  const destination = await batchDestination(deps, tx, order, now);
  if (!destination.payable) return `cannot be paid now. ${asSentence(destination.reason)}`;
  if (destination.address !== row.address) {
    return `cannot be paid now. Its payout address is ${destination.address}, not the batch's ${row.address}.`;
  }
  return null;
}

/** "the address is …" → "The address is ….": reasons come as clauses or as whole sentences. */
function asSentence(reason: string): string {
  const text = reason.charAt(0).toUpperCase() + reason.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
