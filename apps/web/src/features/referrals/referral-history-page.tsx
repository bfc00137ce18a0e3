import type { ReactNode } from 'react';
import type { ReferralRecord } from '@offzero/shared/api/user-settings';
import { SHORTEN, shortenText } from '@offzero/shared/text/shorten';
import { formatCurrency } from '@offzero/shared/currency/format-currency';
import { paths } from '../../config/paths';
import { ButtonLink } from '../../components/ui/button';
import { CopyButton } from '../../components/ui/copy-button';
import { ArrowLeftIcon, InboxIcon } from '../../components/ui/icons';
import { PageHeader } from '../../components/ui/page';
import { useReferralHistory } from './api/referrals';

export const NO_REFERRAL_REWARDS = 'No referral rewards available yet!';

const COLUMNS = ['Referrer', 'Referred By ($)', 'Reward ($)', 'Order Id', 'Date'] as const;

/**
 * Referral history: every reward the customer earned from the trades of customers they
 * referred. A table on wide screens, one card per reward on phones.
 */
export default function ReferralHistoryPage() {
  const history = useReferralHistory();
  // A failed fetch is only logged (by the query) and shows the empty state.
  const rows = history.data ?? [];

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
      <title>Referral history — OffZero</title>
      <ButtonLink to={paths.settings} variant="ghost" size="sm" className="-ml-3">
        <ArrowLeftIcon className="size-4" />
        Back to Settings
      </ButtonLink>
      <div className="mt-3">
        <PageHeader
          title="Referral history"
          description="Rewards you earned from the trades of customers who joined with your link."
        />
      </div>

      <div className="mt-6 overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80">
        {history.isPending ? (
          <HistorySkeleton />
        ) : rows.length === 0 ? (
          <div
            data-testid="referral-history-empty"
            className="flex flex-col items-center px-6 py-14 text-center"
          >
            <span className="inline-flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
              <InboxIcon className="size-6" />
            </span>
            <p className="mt-4 font-semibold text-ink-900">{NO_REFERRAL_REWARDS}</p>
            <p className="mt-1 max-w-sm text-sm text-slate-500">
              Share your referral link from Settings. Rewards appear here when your friends&apos; orders
              complete.
            </p>
          </div>
        ) : (
          <>
            <table data-testid="referral-history-table" className="hidden w-full text-left text-sm md:table">
              <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
                <tr>
                  {COLUMNS.map((column) => (
                    <th key={column} scope="col" className="px-5 py-3">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((row) => (
                  <tr key={row._id} className="hover:bg-slate-50/60">
                    <td className="px-5 py-4">
                      <ShortId value={row.referrer_id} label="Copy referrer id" />
                    </td>
                    <td className="px-5 py-4 text-slate-700 tabular-nums">
                      {formatCurrency(row.platform_fee)}
                    </td>
                    <td className="px-5 py-4 font-semibold text-emerald-700 tabular-nums">
                      {formatCurrency(row.reward_amount)}
                    </td>
                    <td className="px-5 py-4">
                      <ShortId value={row.order_id} label="Copy order id" />
                    </td>
                    <td className="px-5 py-4 whitespace-nowrap text-slate-600">
                      {formatDate(row.createdAt)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <ul data-testid="referral-history-cards" className="divide-y divide-slate-100 md:hidden">
              {rows.map((row) => (
                <RewardCard key={row._id} row={row} />
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}

function RewardCard({ row }: { row: ReferralRecord }) {
  return (
    <li className="px-4 py-4">
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="text-xs text-slate-500">{COLUMNS[2]}</p>
          <p className="text-lg font-semibold text-emerald-700 tabular-nums">
            {formatCurrency(row.reward_amount)}
          </p>
        </div>
        <p className="text-right text-xs text-slate-500">{formatDate(row.createdAt)}</p>
      </div>
      <dl className="mt-3 grid grid-cols-1 gap-2 text-sm">
        <CardRow label={COLUMNS[0]}>
          <ShortId value={row.referrer_id} label="Copy referrer id" />
        </CardRow>
        <CardRow label={COLUMNS[1]}>
          <span className="tabular-nums">{formatCurrency(row.platform_fee)}</span>
        </CardRow>
        <CardRow label={COLUMNS[3]}>
          <ShortId value={row.order_id} label="Copy order id" />
        </CardRow>
      </dl>
    </li>
  );
}

function CardRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-3">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-ink-900">{children}</dd>
    </div>
  );
}

/** An id shortened to 6 leading and trailing characters, with a copy button for the whole id. */
function ShortId({ value, label }: { value: string; label: string }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span className="font-mono text-ink-900" title={value}>
        {shortenText(value, SHORTEN.id)}
      </span>
      <CopyButton text={value} label={label} size="sm" />
    </span>
  );
}

function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

function HistorySkeleton() {
  return (
    <div
      role="status"
      aria-label="Loading referral history"
      className="animate-pulse divide-y divide-slate-100"
    >
      <div className="hidden h-11 bg-slate-50 md:block" />
      {Array.from({ length: 5 }, (_, index) => (
        <div key={index} className="flex items-center gap-6 px-5 py-4">
          <div className="h-4 w-28 rounded bg-slate-200" />
          <div className="h-4 w-16 rounded bg-slate-200" />
          <div className="hidden h-4 w-16 rounded bg-slate-200 sm:block" />
          <div className="hidden h-4 w-28 rounded bg-slate-200 md:block" />
          <div className="ml-auto h-4 w-32 rounded bg-slate-200" />
        </div>
      ))}
    </div>
  );
}
