import { confirmationsOf } from '../../../chain/chain-api';
import { AppError } from '../../../http/errors';
import {
  findBatch,
  findDueBuysWithEntries,
  findReplacement,
  listBatches,
  updateBatch,
  type BatchWithOrders,
} from '../payout-batch.repository';
import type { PayoutBatchDeps } from '../payout-batch-deps';
import { judgePayoutDestination, payoutReadiness } from '../../../payout-addresses/payout-destination';

export interface BatchView extends BatchWithOrders {
  confirmations: number | null;
  replacedByBatchId: string | null;
}

/**
 * Reads a batch and brings its chain state up to date: a broadcast batch whose transaction is in a block
 * becomes `confirmed`, with its confirmations counted at the current tip. A chain that does not answer
 * leaves the stored state (confirmations unknown).
 */
export async function getPayoutBatch(deps: PayoutBatchDeps, batchId: string): Promise<BatchView> {
  const found = await findBatch(deps.db, batchId);
  if (!found) throw new AppError('NOT_FOUND', 'Payout batch not found.');
  return withChainState(deps, found);
}

export async function listPayoutBatches(deps: PayoutBatchDeps, limit: number): Promise<BatchView[]> {
  const batches = await listBatches(deps.db, limit);
  return Promise.all(batches.map((batch) => withChainState(deps, batch)));
}

/**
 * Paid buys waiting for their bitcoin, with whether each can go in a batch now: one query reads the buys
 * with their address-book entries and the operator's proof threshold, then each is judged by the rules
 * every payout path applies.
 */
export async function listDueBuys(deps: PayoutBatchDeps) {
  const now = new Date();
  const rows = await findDueBuysWithEntries(deps.db);
  return Promise.all(
    rows.map(async ({ order, entry, proofRequiredCents }) => {
      const destination = payoutReadiness(
        await judgePayoutDestination(order, entry, proofRequiredCents, now),
        order,
        deps.network,
      );
      return {
        order,
        address: destination.address,
        usable: destination.payable,
        reason: destination.payable ? null : destination.reason,
      };
    }),
  );
}

async function withChainState(deps: PayoutBatchDeps, found: BatchWithOrders): Promise<BatchView> {
  let { batch } = found;
  let confirmations: number | null = null;
  if ((batch.status === 'broadcast' || batch.status === 'confirmed') && batch.txid) {
    try {
      const status = batch.status === 'broadcast' ? await deps.chain.transactionStatus(batch.txid) : null;
      if (status?.blockHeight !== undefined && status.blockHeight !== null) {
        batch = await updateBatch(deps.db, batch.id, {
          status: 'confirmed',
          blockHeight: status.blockHeight,
        });
      }
      confirmations =
        batch.blockHeight === null
          ? 0
          : confirmationsOf({ blockHeight: batch.blockHeight }, await deps.chain.tipHeight());
    } catch {
      confirmations = null;
    }
  }
  const replacement = await findReplacement(deps.db, batch.id);
  return { batch, orders: found.orders, confirmations, replacedByBatchId: replacement?.id ?? null };
}
