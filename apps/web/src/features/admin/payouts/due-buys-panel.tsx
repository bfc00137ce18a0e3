import { useState } from 'react';
import type { DueBuy, FeeTier } from '@offzero/shared/api/payout-batches';
import { errorMessage } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { Button } from '../../../components/ui/button';
import { PageLoadError } from '../../../components/ui/page';
import { useDueBuys } from '../api/list-due-buys';
import { adminPaths } from '../admin-paths';
import { EmptyState, IdWithCopy, Panel, TableSkeleton } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { Pill } from '../components/badges';
import { formatAge, shortOrderId } from '../format';
import { FeeTierSelect } from './fee-tier-select';
import type { RunBatchAction } from './run-batch-action';

const DUE_COLUMNS: Column<DueBuy>[] = [
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

/** The paid buys whose bitcoin is due, and the button that builds one batch of those ready. */
export function DueBuysPanel({ run, building }: { run: RunBatchAction; building: boolean }) {
  const due = useDueBuys();
  const [feeTier, setFeeTier] = useState<FeeTier>('standard');
  const [buildError, setBuildError] = useState<string | null>(null);

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

  return (
    <Panel
      title={`Buys due${due.data ? ` (${dueBuys.length})` : ''}`}
      testId="due-buys"
      padded={false}
      actions={
        <div className="flex flex-wrap items-end gap-2">
          <FeeTierSelect label="Network fee" value={feeTier} onChange={setFeeTier} />
          <Button
            onClick={() => void build()}
            loading={building}
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
          columns={DUE_COLUMNS}
          rows={dueBuys}
          rowKey={(row) => row.orderId}
          label="Buys due"
          rowTestId="due-buy"
        />
      )}
      {due.data && (
        <p className="border-t border-slate-100 px-4 py-3 text-xs text-slate-500 sm:px-5">
          The network fee of a batch may be at most {due.data.feeCapPercent}% of the bitcoin it pays. Flagged
          buys are left out until their flag is resolved.
        </p>
      )}
    </Panel>
  );
}
