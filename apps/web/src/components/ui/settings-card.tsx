import type { ReactNode } from 'react';
import { PencilIcon } from './icons';

/**
 * One card of the settings page (Profile, bank account, Zelle, wallet, notifications,
 * referral). A title, an optional edit button, and the card's content.
 */
export function SettingsCard({
  title,
  description,
  onEdit,
  editLabel,
  children,
  testId,
}: {
  title: string;
  description?: ReactNode;
  /** Shows the pencil button that opens the card's edit dialog. */
  onEdit?: () => void;
  /** The edit button's accessible name, e.g. "Edit personal information". */
  editLabel?: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <section
      aria-label={title}
      data-testid={testId}
      className="flex flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200/80 sm:p-6"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 className="text-base font-semibold text-ink-900">{title}</h2>
          {description && <p className="mt-1 text-sm text-slate-500">{description}</p>}
        </div>
        {onEdit && (
          <button
            type="button"
            onClick={onEdit}
            aria-label={editLabel ?? `Edit ${title.toLowerCase()}`}
            className="-mt-1 -mr-1 inline-flex size-10 shrink-0 items-center justify-center rounded-full text-slate-500 ring-1 ring-slate-200 transition-colors hover:bg-brand-50 hover:text-brand-700 hover:ring-brand-200"
          >
            <PencilIcon className="size-4.5" />
          </button>
        )}
      </div>
      <div className="mt-5 flex-1">{children}</div>
    </section>
  );
}

/** The settings page's grid: one column on phones, two from large screens. */
export function SettingsGrid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">{children}</div>;
}

/** A label and its value, as the cards list them. */
export function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 py-3 first:pt-0 last:pb-0 sm:flex-row sm:items-center sm:justify-between sm:gap-4">
      <dt className="text-sm text-slate-500">{label}</dt>
      <dd className="flex min-w-0 flex-wrap items-center gap-2 text-sm font-medium text-ink-900 sm:justify-end">
        {children}
      </dd>
    </div>
  );
}
