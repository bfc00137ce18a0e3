import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { shortenText, SHORTEN } from '@offzero/shared/text/shorten';
import { errorMessage } from '../../../lib/api-client';
import { PageLoadError } from '../../../components/ui/page';
import {
  AlertIcon,
  ArrowRightIcon,
  BitcoinIcon,
  CardIcon,
  CheckIcon,
  IdCardIcon,
  ShieldIcon,
  WalletIcon,
} from '../../../components/ui/icons';
import { useWorkQueue } from '../api/get-work-queue';
import { useMonitoringCases } from '../api/list-cases';
import { useKycCases } from '../api/list-kyc-cases';
import type { MonitoringCase } from '@offzero/shared/api/cases';
import { CasePill, RuleLabel } from '../cases/case-badges';
import type { AdminOrder, BitcoinToSend, KycCase } from '@offzero/shared/api/admin';
import { payoutBatchStatusText } from '@offzero/shared/api/payout-batches';
import { adminPaths } from '../admin-paths';
import { AdminPageHeader, Panel, TableSkeleton } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { FlagPill, Pill, StatusPill, TypeLabel } from '../components/badges';
import { btc, formatAge, isOverdue, methodLabel, shortOrderId, usd } from '../format';
import { KYC_DOCUMENT_LABEL } from '@offzero/shared/api/kyc';

/** Re-renders every minute so the ages stay true while the page is open. */
function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

type SectionId = 'payments' | 'bitcoin' | 'payouts' | 'flagged' | 'kyc' | 'cases';

interface SectionInfo {
  id: SectionId;
  title: string;
  hint: string;
  icon: typeof CardIcon;
  count: number | undefined;
  oldest: string | null | undefined;
}

/**
 * The first page of the console: what needs a person now, oldest first. Buy payments to check,
 * bitcoin to send, sell payouts due, flagged orders and identity checks, each with its count, the age
 * of its oldest item and a link to each one. Read again every 30 seconds.
 */
export default function WorkQueuePage() {
  const queue = useWorkQueue();
  const kyc = useKycCases('YELLOW');
  // Monitoring cases not closed: the open ones and those under review.
  const openCases = useMonitoringCases({ status: 'open' }, { poll: true });
  const reviewingCases = useMonitoringCases({ status: 'reviewing' }, { poll: true });
  const now = useNow();

  const q = queue.data;
  const cases = kyc.data?.cases;
  const monitoring =
    openCases.data && reviewingCases.data
      ? [...openCases.data.cases, ...reviewingCases.data.cases].sort((a, b) =>
          a.openedAt.localeCompare(b.openedAt),
        )
      : undefined;
  const paymentsSince = (o: AdminOrder) => o.payment?.create_time ?? o.createdAt;
  const paidSince = (o: AdminOrder) => o.paymentConfirmedAt ?? o.createdAt;
  const createdSince = (o: AdminOrder) => o.createdAt;
  const oldest = <T,>(rows: T[] | undefined, since: (row: T) => string | null) =>
    rows?.length ? rows.map(since).filter(Boolean).sort()[0] : rows ? null : undefined;

  const sections: SectionInfo[] = [
    {
      id: 'payments',
      title: 'Payments to check',
      hint: 'Buy orders whose customer says they paid. Check the bank, then mark the payment received.',
      icon: CardIcon,
      count: q?.paymentsToCheck.length,
      oldest: oldest(q?.paymentsToCheck, paymentsSince),
    },
    {
      id: 'bitcoin',
      title: 'Bitcoin to send',
      hint: 'Payment received. Pay them in a batch on the Payouts page, or send one by hand from its order page. A buy already in a batch is paid by that batch.',
      icon: BitcoinIcon,
      count: q?.bitcoinToSend.length,
      oldest: oldest(q?.bitcoinToSend, paidSince),
    },
    {
      id: 'payouts',
      title: 'Sell payouts due',
      hint: 'Deposits confirmed on chain. Pay the customer in dollars and record the reference.',
      icon: WalletIcon,
      count: q?.sellPayoutsDue.length,
      oldest: oldest(q?.sellPayoutsDue, createdSince),
    },
    {
      id: 'flagged',
      title: 'Flagged orders',
      hint: 'Late, under- or over-paid, vanished transactions and capture mismatches.',
      icon: AlertIcon,
      count: q?.flagged.length,
      oldest: oldest(q?.flagged, createdSince),
    },
    {
      id: 'kyc',
      title: 'KYC under review',
      hint: 'Identity documents waiting for a decision.',
      icon: IdCardIcon,
      count: cases?.length,
      oldest: oldest(cases, (c) => c.submittedAt),
    },
    {
      id: 'cases',
      title: 'Monitoring cases',
      hint: 'Patterns the monitoring rules found. Review them, add notes, close with an outcome.',
      icon: ShieldIcon,
      count: monitoring?.length,
      oldest: oldest(monitoring, (c) => c.openedAt),
    },
  ];

  const total = sections.reduce((sum, s) => sum + (s.count ?? 0), 0);

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
        {q && (
          <OrderQueueTable
            rows={q.paymentsToCheck}
            since={paymentsSince}
            now={now}
            label="Payments to check"
            extra={[
              {
                key: 'value',
                header: 'Paid',
                cell: (o) => <span className="font-semibold tabular-nums">{usd(o.value)}</span>,
                className: 'text-right',
              },
              { key: 'method', header: 'Method', cell: (o) => methodLabel(o.payment?.method) },
              {
                key: 'ref',
                header: 'Bank ref.',
                cell: (o) =>
                  o.bankTxn ? (
                    <span className="font-mono text-xs">{o.bankTxn}</span>
                  ) : (
                    <span className="text-slate-500">none yet</span>
                  ),
              },
            ]}
          />
        )}
      </QueueSection>

      <QueueSection section={sections[1]!} loading={queue.isPending} now={now}>
        {q && (
          <OrderQueueTable<BitcoinToSend>
            rows={q.bitcoinToSend}
            since={paidSince}
            now={now}
            label="Bitcoin to send"
            // A buy a batch holds is handled on the Payouts page, never sent by hand.
            rowHref={(o) => (o.payoutBatch ? adminPaths.payouts : adminPaths.order(o._id))}
            extra={[
              {
                key: 'amount',
                header: 'Send',
                cell: (o) => <span className="font-semibold tabular-nums">{btc(o.amount)}</span>,
                className: 'text-right',
              },
              {
                key: 'wallet',
                header: 'To wallet',
                cell: (o) =>
                  typeof o.walletAddress === 'string' ? (
                    <span className="font-mono text-xs" title={o.walletAddress}>
                      {shortenText(o.walletAddress, SHORTEN.address)}
                    </span>
                  ) : (
                    '—'
                  ),
              },
              {
                key: 'batch',
                header: 'Payout',
                cell: (o) =>
                  o.payoutBatch ? (
                    <Link
                      to={adminPaths.payouts}
                      className="inline-flex flex-wrap items-center gap-1.5 text-xs"
                      data-testid="queue-batch"
                    >
                      <span className="font-semibold text-brand-700 hover:underline">
                        Batch {shortOrderId(o.payoutBatch.id)}
                      </span>
                      <Pill tone="sky">{payoutBatchStatusText[o.payoutBatch.status]}</Pill>
                    </Link>
                  ) : (
                    <span className="text-xs whitespace-nowrap text-slate-500">Not in a batch</span>
                  ),
              },
            ]}
          />
        )}
      </QueueSection>

      <QueueSection section={sections[2]!} loading={queue.isPending} now={now}>
        {q && (
          <OrderQueueTable
            rows={q.sellPayoutsDue}
            since={createdSince}
            now={now}
            label="Sell payouts due"
            extra={[
              {
                key: 'value',
                header: 'Pay out',
                cell: (o) => <span className="font-semibold tabular-nums">{usd(o.value)}</span>,
                className: 'text-right',
              },
              { key: 'method', header: 'Method', cell: (o) => methodLabel(o.payment?.method) },
              {
                key: 'conf',
                header: 'Conf.',
                cell: (o) => <span className="tabular-nums">{o.confirmations}</span>,
                className: 'text-right',
              },
            ]}
          />
        )}
      </QueueSection>

      <QueueSection section={sections[3]!} loading={queue.isPending} now={now}>
        {q && (
          <OrderQueueTable
            rows={q.flagged}
            since={createdSince}
            now={now}
            label="Flagged orders"
            extra={[
              { key: 'flag', header: 'Flag', cell: (o) => (o.flag ? <FlagPill flag={o.flag} /> : null) },
              { key: 'status', header: 'Status', cell: (o) => <StatusPill status={o.status} /> },
              {
                key: 'note',
                header: 'Note',
                cell: (o) => <span className="line-clamp-2 text-xs text-slate-600">{o.flagNote ?? '—'}</span>,
                className: 'max-w-72',
              },
            ]}
          />
        )}
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

function SummaryTile({ section, now }: { section: SectionInfo; now: number }) {
  const Icon = section.icon;
  const busy = section.count !== undefined && section.count > 0;
  return (
    <a
      href={`#queue-${section.id}`}
      data-testid={`queue-tile-${section.id}`}
      className={`group rounded-2xl bg-white p-4 shadow-sm ring-1 transition hover:ring-brand-300 ${
        busy ? 'ring-brand-200' : 'ring-slate-200/80'
      }`}
    >
      <div className="flex items-center justify-between gap-2">
        <span
          className={`inline-flex size-8 items-center justify-center rounded-xl ${busy ? 'bg-brand-50 text-brand-700' : 'bg-slate-100 text-slate-500'}`}
        >
          <Icon className="size-4.5" />
        </span>
        <span className="text-2xl font-bold text-ink-900 tabular-nums" data-testid="queue-count">
          {section.count ?? '·'}
        </span>
      </div>
      <p className="mt-2 text-sm font-semibold text-ink-900">{section.title}</p>
      <p
        className={`mt-0.5 text-xs ${isOverdue(section.oldest, now) ? 'font-semibold text-red-600' : 'text-slate-500'}`}
      >
        {section.oldest
          ? `Oldest ${formatAge(section.oldest, now)}`
          : section.count === 0
            ? 'All clear'
            : '\u00a0'}
      </p>
    </a>
  );
}

function QueueSection({
  section,
  loading,
  now,
  children,
}: {
  section: SectionInfo;
  loading: boolean;
  now: number;
  children: ReactNode;
}) {
  const viewAll: Partial<Record<SectionId, string>> = {
    payments: `${adminPaths.orders}?type=buy&status=processing`,
    bitcoin: `${adminPaths.orders}?type=buy&status=processing`,
    payouts: `${adminPaths.orders}?type=sell&status=processing`,
    flagged: `${adminPaths.orders}?flagged=true`,
    kyc: adminPaths.kyc,
    cases: adminPaths.cases,
  };
  return (
    <Panel
      id={`queue-${section.id}`}
      testId={`queue-section-${section.id}`}
      padded={false}
      title={
        <span className="flex flex-wrap items-center gap-2">
          {section.title}
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-600 tabular-nums">
            {section.count ?? '…'}
          </span>
          {section.oldest && (
            <span
              className={`text-xs font-normal ${isOverdue(section.oldest, now) ? 'font-semibold text-red-600' : 'text-slate-500'}`}
            >
              oldest {formatAge(section.oldest, now)}
            </span>
          )}
        </span>
      }
      actions={
        viewAll[section.id] && (
          <Link
            to={viewAll[section.id]!}
            className="inline-flex items-center gap-1 text-xs font-semibold text-brand-700 hover:underline"
          >
            View all
            <ArrowRightIcon className="size-3.5" />
          </Link>
        )
      }
    >
      {loading ? (
        <TableSkeleton rows={2} />
      ) : section.count === 0 ? (
        <p className="flex items-center gap-2 px-4 py-3 text-sm text-slate-500 sm:px-5">
          <CheckIcon className="size-4 text-emerald-600" />
          Nothing waiting here.
        </p>
      ) : (
        <>
          <p className="border-b border-slate-100 px-4 py-2 text-xs text-slate-500 sm:px-5">{section.hint}</p>
          {children}
        </>
      )}
    </Panel>
  );
}

function OrderQueueTable<Row extends AdminOrder = AdminOrder>({
  rows,
  since,
  now,
  label,
  extra,
  rowHref = (o) => adminPaths.order(o._id),
}: {
  rows: Row[];
  since: (order: Row) => string | null;
  now: number;
  label: string;
  extra: Column<Row>[];
  /** Where a row leads: the order page unless told otherwise. */
  rowHref?: (order: Row) => string;
}) {
  const columns: Column<Row>[] = [
    {
      key: 'order',
      header: 'Order',
      primary: true,
      cell: (o) => (
        <span className="inline-flex items-center gap-2">
          <Link
            to={adminPaths.order(o._id)}
            className="font-mono text-xs font-semibold text-brand-700 hover:underline"
            aria-label={`Order ${shortOrderId(o._id)}`}
          >
            #{shortOrderId(o._id)}
          </Link>
          <TypeLabel type={o.type} />
        </span>
      ),
    },
    {
      key: 'customer',
      header: 'Customer',
      cell: (o) => (
        <span
          className="block break-all md:max-w-xs md:truncate md:break-normal"
          title={o.customerEmail ?? undefined}
        >
          {o.customerEmail ?? '—'}
        </span>
      ),
    },
    ...extra,
    {
      key: 'age',
      header: 'Waiting',
      primary: true,
      className: 'text-right',
      cell: (o) => (
        <span
          className={`text-xs whitespace-nowrap tabular-nums ${isOverdue(since(o), now) ? 'font-semibold text-red-600' : 'text-slate-600'}`}
        >
          {formatAge(since(o), now)}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(o) => o._id}
      rowHref={rowHref}
      label={label}
      rowTestId="queue-row"
    />
  );
}

function KycQueueTable({ rows, now }: { rows: KycCase[]; now: number }) {
  const columns: Column<KycCase>[] = [
    {
      key: 'customer',
      header: 'Customer',
      primary: true,
      cell: (c) => (
        <Link to={adminPaths.kycCase(c.userId)} className="font-semibold text-brand-700 hover:underline">
          {c.email ?? c.userId}
        </Link>
      ),
    },
    { key: 'name', header: 'Legal name', cell: (c) => c.legalName ?? '—' },
    {
      key: 'doc',
      header: 'Document',
      cell: (c) =>
        c.documentType
          ? (KYC_DOCUMENT_LABEL[c.documentType as keyof typeof KYC_DOCUMENT_LABEL] ?? c.documentType)
          : '—',
    },
    { key: 'country', header: 'Country', cell: (c) => c.country ?? '—' },
    {
      key: 'age',
      header: 'Waiting',
      primary: true,
      className: 'text-right',
      cell: (c) => (
        <span
          className={`text-xs tabular-nums ${isOverdue(c.submittedAt, now) ? 'font-semibold text-red-600' : 'text-slate-600'}`}
        >
          {formatAge(c.submittedAt, now)}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(c) => c.userId}
      rowHref={(c) => adminPaths.kycCase(c.userId)}
      label="KYC under review"
      rowTestId="queue-kyc-row"
    />
  );
}

function CaseQueueTable({ rows, now }: { rows: MonitoringCase[]; now: number }) {
  const columns: Column<MonitoringCase>[] = [
    {
      key: 'rule',
      header: 'Rule',
      primary: true,
      cell: (c) => (
        <Link to={adminPaths.case(c.id)} className="font-semibold text-brand-700 hover:underline">
          <RuleLabel rule={c.rule} />
        </Link>
      ),
    },
    { key: 'status', header: 'Status', cell: (c) => <CasePill status={c.status} /> },
    {
      key: 'customer',
      header: 'Customer',
      cell: (c) => (
        <span className="block break-all md:max-w-xs md:truncate md:break-normal">
          {c.customerEmail ?? c.userId}
        </span>
      ),
    },
    {
      key: 'age',
      header: 'Waiting',
      primary: true,
      className: 'text-right',
      cell: (c) => (
        <span
          className={`text-xs tabular-nums ${isOverdue(c.openedAt, now) ? 'font-semibold text-red-600' : 'text-slate-600'}`}
        >
          {formatAge(c.openedAt, now)}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(c) => c.id}
      rowHref={(c) => adminPaths.case(c.id)}
      label="Monitoring cases"
      rowTestId="queue-row"
    />
  );
}
