import { useId, useState, type ChangeEvent } from 'react';
import { toast } from '../../../lib/toast';
import {
  payoutBatchStatusText,
  type DueBuy,
  type FeeTier,
  type PayoutBatch,
  type PayoutBatchStatus,
} from '@offzero/shared/api/payout-batches';
import { errorMessage } from '../../../lib/api-client';
import { useAppConfig } from '../../../lib/app-config';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { saveBlob } from '../../../lib/save-blob';
import { Button } from '../../../components/ui/button';
import { PageLoadError } from '../../../components/ui/page';
import { DownloadIcon } from '../../../components/ui/icons';
import { downloadBatchPsbt } from '../api/download-batch-psbt';
import { useDueBuys } from '../api/list-due-buys';
import { usePayoutBatches } from '../api/list-payout-batches';
import { usePayoutBatchAction, type PayoutBatchAction } from '../api/payout-batch-action';
import { signBatchWithDemoWallet } from '../api/sign-batch-with-demo-wallet';
import { adminPaths } from '../admin-paths';
import {
  AdminPageHeader,
  EmptyState,
  ExplorerLink,
  IdWithCopy,
  Panel,
  TableSkeleton,
} from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { Pill, type PillTone } from '../components/badges';
import { FilterSelect } from '../components/filter-fields';
import { formatAge, formatDateTime, shortOrderId } from '../format';

const FEE_TIERS: { value: FeeTier; label: string }[] = [
  { value: 'economy', label: 'Economy (about an hour)' },
  { value: 'standard', label: 'Standard (about 30 minutes)' },
  { value: 'priority', label: 'Priority (next block)' },
];

const STATUS_TONE: Record<PayoutBatchStatus, PillTone> = {
  awaiting_signature: 'amber',
  broadcasting: 'sky',
  broadcast: 'sky',
  confirmed: 'emerald',
  replaced: 'slate',
  abandoned: 'slate',
};

/**
 * Payouts: the paid buys whose bitcoin is due, and the batches that pay them. Staff build one batch (an
 * unsigned PSBT from the watch-only payout wallet), download it, sign it in the operator's own wallet,
 * and upload it; the server checks it, broadcasts it and completes the orders. A batch that does not
 * confirm can be fee-bumped. Single buys can still be paid from their order page.
 */
export default function PayoutsPage() {
  const due = useDueBuys();
  const batches = usePayoutBatches();
  const action = usePayoutBatchAction();
  const keys = useIdempotencyKeys();
  const [feeTier, setFeeTier] = useState<FeeTier>('standard');
  const [buildError, setBuildError] = useState<string | null>(null);

  const run = async (change: PayoutBatchAction, onError: (message: string | null) => void) => {
    onError(null);
    try {
      const answer = await action.mutateAsync({ action: change, idempotencyKey: keys.keyFor(change) });
      keys.settle();
      return answer;
    } catch (error) {
      keys.settle(error);
      onError(errorMessage(error));
      return null;
    }
  };

  const build = async () => {
    const answer = await run({ kind: 'build', feeTier }, setBuildError);
    if (answer) {
      const count = answer.batch.orderIds.length;
      toast.success(`Batch built: ${count} buy${count === 1 ? '' : 's'}. Download the PSBT and sign it.`);
    }
  };

  const dueBuys = due.data?.dueBuys ?? [];
  const usable = dueBuys.filter((row) => row.usable).length;
  const walletMissing = due.data && !due.data.walletConfigured;

  const dueColumns: Column<DueBuy>[] = [
    {
      key: 'order',
      header: 'Order',
      primary: true,
      cell: (row) => (
        <IdWithCopy
          value={row.orderId}
          label="Copy order id"
          display={shortOrderId(row.orderId)}
          to={adminPaths.order(row.orderId)}
        />
      ),
    },
    {
      key: 'amount',
      header: 'Bitcoin',
      className: 'text-right tabular-nums',
      cell: (row) => `${row.amount} BTC`,
    },
    {
      key: 'address',
      header: 'Pays to',
      cell: (row) =>
        row.address ? <span className="font-mono text-xs break-all text-ink-900">{row.address}</span> : '—',
    },
    {
      key: 'state',
      header: 'Ready',
      cell: (row) =>
        row.usable ? (
          <Pill tone="emerald">Ready for a batch</Pill>
        ) : (
          // The reason is a sentence (the address book's words): it wraps under the pill.
          <div className="space-y-1">
            <Pill tone="amber">Waiting</Pill>
            <p className="max-w-72 text-xs break-words text-slate-600">{row.reason}</p>
          </div>
        ),
    },
    { key: 'paid', header: 'Paid', cell: (row) => (row.paidAt ? `${formatAge(row.paidAt)} ago` : '—') },
  ];

  return (
    <div className="space-y-6">
      <title>Payouts — OffZero back office</title>
      <AdminPageHeader
        title="Payouts"
        description="Pay due buys in one bitcoin transaction: build a batch, sign its PSBT in the payout wallet, upload it."
      />

      <Panel
        title={`Buys due${due.data ? ` (${dueBuys.length})` : ''}`}
        testId="due-buys"
        padded={false}
        actions={
          <div className="flex flex-wrap items-end gap-2">
            <FilterSelect
              label="Network fee"
              value={feeTier}
              onChange={(event) => setFeeTier(event.target.value as FeeTier)}
              className="min-w-52"
            >
              {FEE_TIERS.map((tier) => (
                <option key={tier.value} value={tier.value}>
                  {tier.label}
                </option>
              ))}
            </FilterSelect>
            <Button
              onClick={() => void build()}
              loading={action.isPending && action.variables?.action.kind === 'build'}
              disabled={!due.data || usable === 0 || walletMissing}
            >
              Build batch
            </Button>
          </div>
        }
      >
        {buildError && (
          <p role="alert" className="mx-4 mt-3 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700 sm:mx-5">
            {buildError}
          </p>
        )}
        {walletMissing && (
          <p className="mx-4 mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 sm:mx-5">
            No payout wallet is configured (PAYOUT_WALLET_XPUB). Pay buys one by one from their order page.
          </p>
        )}
        {due.isError ? (
          <div className="p-4">
            <PageLoadError message={errorMessage(due.error)} onRetry={() => void due.refetch()} />
          </div>
        ) : !due.data ? (
          <TableSkeleton rows={3} label="Loading the buys due" />
        ) : dueBuys.length === 0 ? (
          <EmptyState title="No buys are due">
            A buy is due once its payment is marked received. It is paid here, or by hand from its order page.
          </EmptyState>
        ) : (
          <DataTable
            columns={dueColumns}
            rows={dueBuys}
            rowKey={(row) => row.orderId}
            label="Buys due"
            rowTestId="due-buy"
          />
        )}
        {due.data && (
          <p className="border-t border-slate-100 px-4 py-3 text-xs text-slate-500 sm:px-5">
            The network fee of a batch may be at most {due.data.feeCapPercent}% of the bitcoin it pays.
            Flagged buys are left out until their flag is resolved.
          </p>
        )}
      </Panel>

      <Panel title="Batches" testId="payout-batches" padded={false}>
        {batches.isError ? (
          <div className="p-4">
            <PageLoadError message={errorMessage(batches.error)} onRetry={() => void batches.refetch()} />
          </div>
        ) : !batches.data ? (
          <TableSkeleton rows={3} label="Loading the batches" />
        ) : batches.data.batches.length === 0 ? (
          <EmptyState title="No batches yet">Build one from the buys due above.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100">
            {batches.data.batches.map((batch) => (
              <li key={batch.id}>
                <BatchCard batch={batch} run={run} busy={action.isPending} />
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}

function BatchCard({
  batch,
  run,
  busy,
}: {
  batch: PayoutBatch;
  run: (change: PayoutBatchAction, onError: (message: string | null) => void) => Promise<unknown>;
  busy: boolean;
}) {
  const { mode } = useAppConfig();
  const [error, setError] = useState<string | null>(null);
  const [signed, setSigned] = useState('');
  const [bumpTier, setBumpTier] = useState<FeeTier>('priority');
  const [working, setWorking] = useState<string | null>(null);
  const fileId = useId();
  const pasteId = useId();
  const count = batch.orderIds.length;

  const download = async () => {
    setError(null);
    try {
      const file = await downloadBatchPsbt(batch.id);
      saveBlob(file.blob, file.filename ?? `offzero-batch-${batch.id.slice(0, 8)}.psbt`);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  const demoSign = async () => {
    setError(null);
    setWorking('sign');
    try {
      const { psbt } = await signBatchWithDemoWallet(batch.id);
      setSigned(psbt);
      toast.success('Signed with the demo wallet. Upload it to broadcast.');
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setWorking(null);
    }
  };

  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const bytes = new Uint8Array(await file.arrayBuffer());
    // A binary PSBT starts with "psbt" 0xff (BIP 174); anything else is read as base64 text.
    const binary =
      bytes[0] === 0x70 && bytes[1] === 0x73 && bytes[2] === 0x62 && bytes[3] === 0x74 && bytes[4] === 0xff;
    setSigned(binary ? toBase64(bytes) : new TextDecoder().decode(bytes).trim());
  };

  const upload = async () => {
    setWorking('upload');
    const answer = await run({ kind: 'signed', batchId: batch.id, psbt: signed }, setError);
    setWorking(null);
    if (answer) {
      setSigned('');
      toast.success(`Broadcast. ${count} order${count === 1 ? '' : 's'} completed.`);
    }
  };

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

      <details className="text-sm">
        <summary className="cursor-pointer text-slate-600">Outputs and change</summary>
        <ul className="mt-2 space-y-1">
          {batch.outputs.map((output) => (
            <li
              key={output.orderId}
              className="flex flex-wrap gap-x-2 break-all"
              data-testid="batch-output"
              data-order-id={output.orderId}
            >
              <a className="text-brand-700 hover:underline" href={adminPaths.order(output.orderId)}>
                {shortOrderId(output.orderId)}
              </a>
              <span className="tabular-nums">{output.amount} BTC</span>
              <span className="font-mono text-xs text-slate-600">{output.address}</span>
              {output.vout !== null && <span className="text-xs text-slate-500">output {output.vout}</span>}
            </li>
          ))}
          {batch.changeAddress && (
            <li className="flex flex-wrap gap-x-2 break-all text-slate-600">
              <span>Change</span>
              <span className="tabular-nums">{batch.changeAmount} BTC</span>
              <span className="font-mono text-xs">{batch.changeAddress}</span>
            </li>
          )}
        </ul>
      </details>

      {batch.status === 'awaiting_signature' && (
        <div className="space-y-3 rounded-xl bg-slate-50 p-3">
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => void download()}>
              <DownloadIcon className="size-4" /> Download PSBT
            </Button>
            {mode === 'demo' && (
              <Button
                variant="outline"
                size="sm"
                loading={working === 'sign'}
                onClick={() => void demoSign()}
              >
                Sign with the demo wallet
              </Button>
            )}
            <Button
              variant="ghost"
              size="sm"
              disabled={busy}
              onClick={() => void run({ kind: 'abandon', batchId: batch.id }, setError)}
            >
              Abandon batch
            </Button>
          </div>
          <div className="space-y-2">
            <label htmlFor={fileId} className="block text-xs font-medium text-slate-600">
              Signed PSBT file
            </label>
            <input
              id={fileId}
              type="file"
              accept=".psbt,.txt,application/octet-stream,text/plain"
              onChange={(event) => void readFile(event)}
              className="block w-full text-sm text-slate-600 file:mr-3 file:rounded-full file:border-0 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-ink-900 file:ring-1 file:ring-slate-200"
            />
            <label htmlFor={pasteId} className="block text-xs font-medium text-slate-600">
              …or paste it (base64)
            </label>
            <textarea
              id={pasteId}
              value={signed}
              onChange={(event) => setSigned(event.target.value)}
              rows={3}
              spellCheck={false}
              className="block w-full rounded-lg border-0 bg-white px-3 py-2 font-mono text-xs break-all text-ink-900 ring-1 ring-slate-200 focus:ring-2 focus:ring-brand-500"
              placeholder="cHNidP8B…"
            />
            <Button
              size="sm"
              loading={working === 'upload'}
              disabled={!signed.trim() || busy}
              onClick={() => void upload()}
            >
              Upload and broadcast
            </Button>
          </div>
        </div>
      )}

      {batch.status === 'broadcasting' && (
        <p className="rounded-lg bg-sky-50 px-3 py-2 text-sm text-sky-800">
          The signed transaction is recorded but its broadcast did not finish. Upload the same signed PSBT
          again to finish it: the same transaction is sent, nothing is paid twice.
        </p>
      )}

      {batch.status === 'broadcast' && !batch.replacedByBatchId && (
        <div className="flex flex-wrap items-end gap-2">
          <FilterSelect
            label="Not confirming? New fee"
            value={bumpTier}
            onChange={(event) => setBumpTier(event.target.value as FeeTier)}
            className="min-w-52"
          >
            {FEE_TIERS.map((tier) => (
              <option key={tier.value} value={tier.value}>
                {tier.label}
              </option>
            ))}
          </FilterSelect>
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            onClick={() => void run({ kind: 'bump-fee', batchId: batch.id, feeTier: bumpTier }, setError)}
          >
            Bump fee
          </Button>
        </div>
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

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}
