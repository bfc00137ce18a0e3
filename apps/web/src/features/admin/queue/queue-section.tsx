import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowRightIcon, CardIcon, CheckIcon } from '../../../components/ui/icons';
import { adminPaths } from '../admin-paths';
import { Panel, TableSkeleton } from '../components/blocks';
import { formatAge, isOverdue } from '../format';

export type SectionId = 'payments' | 'bitcoin' | 'payouts' | 'flagged' | 'kyc' | 'cases';

export interface SectionInfo {
  id: SectionId;
  title: string;
  hint: string;
  icon: typeof CardIcon;
  count: number | undefined;
  oldest: string | null | undefined;
}

export function SummaryTile({ section, now }: { section: SectionInfo; now: number }) {
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

export function QueueSection({
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
