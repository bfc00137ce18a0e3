import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAppConfig } from '../../../lib/app-config';
import { CopyButton } from '../../../components/ui/copy-button';
import { ExternalLinkIcon, InboxIcon } from '../../../components/ui/icons';
import { Button } from '../../../components/ui/button';

// The building blocks of the console's pages: titled panels, label/value lists, empty states,
// table skeletons, ids with a copy button, explorer links and pagination.

export function AdminPageHeader({
  title,
  description,
  actions,
  eyebrow,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  eyebrow?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        {eyebrow && <div className="mb-1">{eyebrow}</div>}
        <h1 className="text-xl font-bold tracking-tight text-ink-900 sm:text-2xl">{title}</h1>
        {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}

export function Panel({
  title,
  actions,
  children,
  className,
  padded = true,
  testId,
  id,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  padded?: boolean;
  testId?: string;
  id?: string;
}) {
  return (
    <section
      id={id}
      data-testid={testId}
      className={`min-w-0 rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80 ${className ?? ''}`}
    >
      {(title || actions) && (
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-100 px-4 py-3 sm:px-5">
          {title && <h2 className="text-sm font-semibold text-ink-900">{title}</h2>}
          {actions && <div className="flex flex-wrap items-center gap-2">{actions}</div>}
        </div>
      )}
      <div className={padded ? 'px-4 py-4 sm:px-5' : undefined}>{children}</div>
    </section>
  );
}

/** Label/value rows; on wide panels the label sits left of the value. */
export function Details({ rows }: { rows: [label: string, value: ReactNode, key?: string][] }) {
  return (
    <dl className="@container divide-y divide-slate-100 text-sm">
      {rows.map(([label, value, key]) => (
        <div
          key={key ?? label}
          className="grid grid-cols-1 gap-0.5 py-2 first:pt-0 last:pb-0 @xs:grid-cols-[7.5rem_minmax(0,1fr)] @xs:gap-3 @lg:grid-cols-[10rem_minmax(0,1fr)]"
        >
          <dt className="text-slate-500">{label}</dt>
          <dd className="min-w-0 break-words text-ink-900">{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="flex flex-col items-center px-6 py-10 text-center">
      <span className="inline-flex size-10 items-center justify-center rounded-2xl bg-slate-100 text-slate-500">
        <InboxIcon className="size-5" />
      </span>
      <p className="mt-3 text-sm font-semibold text-ink-900">{title}</p>
      {children && <p className="mt-1 max-w-sm text-sm text-slate-500">{children}</p>}
    </div>
  );
}

export function TableSkeleton({ rows = 6, label = 'Loading' }: { rows?: number; label?: string }) {
  return (
    <div role="status" aria-label={label} className="animate-pulse divide-y divide-slate-100">
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="flex items-center gap-6 px-4 py-3.5 sm:px-5">
          <div className="h-3.5 w-24 rounded bg-slate-200" />
          <div className="h-3.5 w-40 rounded bg-slate-200" />
          <div className="hidden h-3.5 w-16 rounded bg-slate-200 sm:block" />
          <div className="ml-auto h-3.5 w-20 rounded bg-slate-200" />
        </div>
      ))}
    </div>
  );
}

/** A long id shown in full (monospace, wrapping) or shortened, with a copy button. */
export function IdWithCopy({
  value,
  label,
  display,
  to,
}: {
  value: string;
  label: string;
  display?: string;
  to?: string;
}) {
  const text = display ?? value;
  return (
    <span className="inline-flex max-w-full items-center gap-1.5 align-middle">
      {to ? (
        <Link
          to={to}
          title={value}
          className="min-w-0 font-mono text-xs break-all text-brand-700 hover:underline"
        >
          {text}
        </Link>
      ) : (
        <span title={value} className="min-w-0 font-mono text-xs break-all text-ink-900">
          {text}
        </span>
      )}
      <CopyButton text={value} label={label} size="sm" className="size-7!" />
    </span>
  );
}

/** A link to the block explorer for a transaction or an address. */
export function ExplorerLink({
  kind,
  value,
  label,
}: {
  kind: 'tx' | 'address';
  value: string;
  label: string;
}) {
  const { explorerUrl } = useAppConfig();
  return (
    <a
      href={`${explorerUrl.replace(/\/$/, '')}/${kind}/${value}`}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label}
      title={label}
      className="inline-flex size-7 shrink-0 items-center justify-center rounded-full text-slate-500 ring-1 ring-slate-200 hover:bg-brand-50 hover:text-brand-700"
    >
      <ExternalLinkIcon className="size-3.5" />
    </a>
  );
}

export function Pagination({
  page,
  pageSize,
  total,
  onPage,
  busy,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  busy?: boolean;
}) {
  const first = total === 0 ? 0 : page * pageSize + 1;
  const last = Math.min(total, (page + 1) * pageSize);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav
      aria-label="Pagination"
      className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-100 px-4 py-3 text-sm text-slate-600 sm:px-5"
    >
      <p aria-live="polite">
        {total === 0 ? 'No results' : `Showing ${first}–${last} of ${total}`}
        {busy && <span className="sr-only"> (loading)</span>}
      </p>
      <div className="flex items-center gap-2">
        <Button variant="outline" size="sm" disabled={page <= 0} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <span className="tabular-nums">
          {page + 1} / {pages}
        </span>
        <Button variant="outline" size="sm" disabled={page + 1 >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}

/** The shared look of dense tables: header cells and body cells. */
export const th =
  'px-3 py-2.5 text-[11px] font-semibold tracking-wide whitespace-nowrap text-slate-500 uppercase first:pl-4 last:pr-4 sm:first:pl-5 sm:last:pr-5';
export const td = 'px-3 py-2.5 align-middle first:pl-4 last:pr-4 sm:first:pl-5 sm:last:pr-5';
