import { formatBtc } from '@offzero/shared/money/money';
import type { PayoutBatch } from '@offzero/shared/api/payout-batches';
import type { BatchView } from './use-cases/read-payout-batches';

/** A batch as the back office sees it; `explorerUrl` is the chain explorer's base (EXPLORER_URL). */
export function toPayoutBatch(view: BatchView, explorerUrl: string): PayoutBatch {
  const { batch, orders } = view;
  return {
    id: batch.id,
    status: batch.status,
    orderIds: orders.map((row) => row.orderId),
    feeSats: Number(batch.feeSats),
    txid: batch.txid,
    feeTier: batch.feeTier,
    feeRate: batch.feeRateSatPerKvb / 1000,
    payoutAmount: formatBtc(batch.payoutSats, 8),
    changeAmount: formatBtc(batch.changeSats, 8),
    changeAddress: batch.changeAddress,
    outputs: orders.map((row) => ({
      orderId: row.orderId,
      address: row.address,
      amount: formatBtc(row.amountSats, 8),
      vout: row.vout,
    })),
    inputCount: batch.inputs.length,
    replacesBatchId: batch.replacesBatchId,
    replacedByBatchId: view.replacedByBatchId,
    confirmations: view.confirmations,
    explorerUrl:
      batch.txid && batch.status !== 'awaiting_signature' ? `${explorerUrl}/tx/${batch.txid}` : null,
    createdAt: batch.createdAt.toISOString(),
    broadcastAt: batch.broadcastAt?.toISOString() ?? null,
  };
}
