import { errorMessage } from '../../../lib/api-client';
import { PageLoadError } from '../../../components/ui/page';
import { usePayoutBatches } from '../api/list-payout-batches';
import { EmptyState, Panel, TableSkeleton } from '../components/blocks';
import { BatchCard } from './batch-card';
import type { RunBatchAction } from './run-batch-action';

/** Every batch, each with what can be done with it now. */
export function PayoutBatchesPanel({ run, busy }: { run: RunBatchAction; busy: boolean }) {
  const batches = usePayoutBatches();
  return (
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
              <BatchCard batch={batch} run={run} busy={busy} />
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
