import { errorMessage } from '../../../lib/api-client';
import { PageLoadError } from '../../../components/ui/page';
import { AlertIcon } from '../../../components/ui/icons';
import { AdminPageHeader } from '../components/blocks';
import { BitcoinToSendTable } from './bitcoin-to-send';
import { CaseQueueTable } from './case-queue-table';
import { FlaggedOrdersTable } from './flagged-orders';
import { KycQueueTable } from './kyc-queue-table';
import { PaymentsToCheckTable } from './payments-to-check';
import { QueueSection, SummaryTile } from './queue-section';
import { useQueueSections } from './queue-sections';
import { SellPayoutsDueTable } from './sell-payouts-due';
import { UnmatchedBankCredits } from './unmatched-bank-credits';

/**
 * The first page of the console: what needs a person now, oldest first. Buy payments to check,
 * bitcoin to send, sell payouts due, flagged orders and identity checks, each with its count, the age
 * of its oldest item and a link to each one. Read again every 30 seconds.
 */
export default function WorkQueuePage() {
  const { queue, kyc, q, cases, monitoring, sections, total, now } = useQueueSections();

  return (
    <div className="space-y-6">
      <title>Work queue — OffZero back office</title>
      <AdminPageHeader
        title="Work queue"
        description={
          q && cases && monitoring
            ? total === 0
              ? 'Nothing is waiting for a person. New work appears here by itself.'
              : `${total} item${total === 1 ? '' : 's'} waiting, oldest first. This page refreshes every 30 seconds.`
            : 'What needs a person now, oldest first.'
        }
      />

      {queue.isError && (
        <PageLoadError message={errorMessage(queue.error)} onRetry={() => void queue.refetch()} />
      )}

      {/* Problems of the system itself (a sanctions list that failed to refresh) come before any work. */}
      {q?.alerts.map((alert) => (
        <p
          key={alert.id}
          role="alert"
          className="flex items-start gap-2 rounded-xl border border-red-200 bg-red-50 p-3 text-sm text-red-800"
        >
          <AlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>{alert.message}</span>
        </p>
      ))}

      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-6">
        {sections.map((section) => (
          <SummaryTile key={section.id} section={section} now={now} />
        ))}
      </div>

      <QueueSection section={sections[0]!} loading={queue.isPending} now={now}>
        {q && <PaymentsToCheckTable rows={q.paymentsToCheck} now={now} />}
      </QueueSection>

      <UnmatchedBankCredits now={now} />

      <QueueSection section={sections[1]!} loading={queue.isPending} now={now}>
        {q && <BitcoinToSendTable rows={q.bitcoinToSend} now={now} />}
      </QueueSection>

      <QueueSection section={sections[2]!} loading={queue.isPending} now={now}>
        {q && <SellPayoutsDueTable rows={q.sellPayoutsDue} now={now} />}
      </QueueSection>

      <QueueSection section={sections[3]!} loading={queue.isPending} now={now}>
        {q && <FlaggedOrdersTable rows={q.flagged} now={now} />}
      </QueueSection>

      <QueueSection section={sections[4]!} loading={kyc.isPending} now={now}>
        {cases && <KycQueueTable rows={cases} now={now} />}
      </QueueSection>

      <QueueSection section={sections[5]!} loading={!monitoring} now={now}>
        {monitoring && <CaseQueueTable rows={monitoring} now={now} />}
      </QueueSection>
    </div>
  );
}
