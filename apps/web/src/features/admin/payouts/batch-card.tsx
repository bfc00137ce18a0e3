import { useState } from 'react';
import {
  payoutBatchStatusText,
  type FeeTier,
  type PayoutBatch,
  type PayoutBatchStatus,
} from '@offzero/shared/api/payout-batches';
import { Button } from '../../../components/ui/button';
import { ExplorerLink, IdWithCopy } from '../components/blocks';
import { Pill, type PillTone } from '../components/badges';
import { formatDateTime } from '../format';
import { BatchOutputs } from './batch-outputs';
import { BatchSigning } from './batch-signing';
import { FeeTierSelect } from './fee-tier-select';
import type { RunBatchAction } from './run-batch-action';

const STATUS_TONE: Record<PayoutBatchStatus, PillTone> = {
  awaiting_signature: 'amber',
  broadcasting: 'sky',
  broadcast: 'sky',
  confirmed: 'emerald',
  replaced: 'slate',
  abandoned: 'slate',
};

/** One batch: its state, figures, transaction and outputs, and what can be done with it now. */
export function BatchCard({ batch, run, busy }: { batch: PayoutBatch; run: RunBatchAction; busy: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const count = batch.orderIds.length;

  return (
    <article data-testid="payout-batch" data-batch-id={batch.id} className="space-y-3 px-4 py-4 sm:px-5">
      <div className="flex flex-wrap items-center gap-2">
        <Pill tone={STATUS_TONE[batch.status]}>{payoutBatchStatusText[batch.status]}</Pill>
        <span className="font-mono text-xs text-slate-500">Batch {batch.id.slice(0, 8)}</span>
        {batch.replacesBatchId && (
          <span className="text-xs text-slate-500">fee bump of {batch.replacesBatchId.slice(0, 8)}</span>
        )}
        <span className="ml-auto text-xs text-slate-500">{formatDateTime(batch.createdAt)}</span>
      </div>

      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-4">
        <Fact label="Orders" value={String(count)} />
        <Fact label="Pays" value={`${batch.payoutAmount} BTC`} />
        <Fact
          label="Network fee"
          value={`${batch.feeSats.toLocaleString('en-US')} sats (${batch.feeRate} sat/vB)`}
        />
        <Fact
          label="Confirmations"
          value={batch.confirmations === null ? '—' : String(batch.confirmations)}
          testId="batch-confirmations"
        />
      </dl>

      {batch.txid && (
        <div className="flex min-w-0 flex-wrap items-center gap-2 text-sm">
          <span className="text-slate-600">Transaction</span>
          <IdWithCopy value={batch.txid} label="Copy transaction id" />
          <ExplorerLink kind="tx" value={batch.txid} label="Open the transaction in the block explorer" />
        </div>
      )}

      <BatchOutputs batch={batch} />

      {batch.status === 'awaiting_signature' && (
        <BatchSigning batch={batch} run={run} busy={busy} setError={setError} />
      )}

      {batch.status === 'broadcasting' && (
        <p className="rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-800">
          The signed transaction is recorded but its broadcast did not finish. Upload the same signed PSBT
          again to finish it: the same transaction is sent, nothing is paid twice.
        </p>
      )}

      {batch.status === 'broadcast' && !batch.replacedByBatchId && (
        <BatchFeeBump batch={batch} run={run} busy={busy} setError={setError} />
      )}

      {error && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </article>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="font-medium break-words text-ink-900 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** A broadcast batch that does not confirm is replaced by one paying a higher fee. */
function BatchFeeBump({
  batch,
  run,
  busy,
  setError,
}: {
  batch: PayoutBatch;
  run: RunBatchAction;
  busy: boolean;
  setError: (message: string | null) => void;
}) {
  const [bumpTier, setBumpTier] = useState<FeeTier>('priority');
  return (
    <div className="flex flex-wrap items-end gap-2">
      <FeeTierSelect label="Not confirming? New fee" value={bumpTier} onChange={setBumpTier} />
      <Button
        variant="outline"
        size="sm"
        disabled={busy}
        onClick={() => void run({ kind: 'bump-fee', batchId: batch.id, feeTier: bumpTier }, setError)}
      >
        Bump fee
      </Button>
    </div>
  );
}
