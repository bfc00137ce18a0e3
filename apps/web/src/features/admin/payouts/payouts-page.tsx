import { AdminPageHeader } from '../components/blocks';
import { AchFilePanel } from './ach-file-panel';
import { DueBuysPanel } from './due-buys-panel';
import { PayoutBatchesPanel } from './payout-batches-panel';
import { useRunBatchAction } from './run-batch-action';

/**
 * Payouts: the paid buys whose bitcoin is due, and the batches that pay them. Staff build one batch (an
 * unsigned PSBT from the watch-only payout wallet), download it, sign it in the operator's own wallet,
 * and upload it; the server checks it, broadcasts it and completes the orders. A batch that does not
 * confirm can be fee-bumped. Single buys can still be paid from their order page. The day's ACH sell
 * payouts go to the bank as one NACHA file.
 */
export default function PayoutsPage() {
  const { run, action } = useRunBatchAction();

  return (
    <div className="space-y-6">
      <title>Payouts — OffZero back office</title>
      <AdminPageHeader
        title="Payouts"
        description="Pay due buys in one bitcoin transaction: build a batch, sign its PSBT in the payout wallet, upload it."
      />

      <DueBuysPanel run={run} building={action.isPending && action.variables?.action.kind === 'build'} />

      <PayoutBatchesPanel run={run} busy={action.isPending} />

      <AchFilePanel />
    </div>
  );
}
