import type { ComponentType, ReactNode } from 'react';
import { CheckIcon } from './icons';

/**
 * One of the dashboard's account-status tiles (Email, Phone, and later KYC and Bank).
 * Done tiles show a green check and their status; open ones show what to do next (`action`).
 */
export function StatusTile({
  title,
  icon: Icon,
  done,
  status,
  detail,
  action,
  testId,
}: {
  title: string;
  icon: ComponentType<{ className?: string }>;
  /** Complete: the status shows with a success mark. */
  done: boolean;
  /** 'Verified', 'Added', 'Under Review'... shown when there is no action. */
  status?: ReactNode;
  /** A line under the title (the address, the number...). */
  detail?: ReactNode;
  /** The button or link that completes this item, when not done. */
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <section
      aria-label={title}
      data-testid={testId}
      className="flex min-w-0 flex-col rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/80 sm:p-5"
    >
      <div className="flex items-start justify-between gap-3">
        <span
          className={`inline-flex size-11 shrink-0 items-center justify-center rounded-xl ${
            done ? 'bg-emerald-50 text-emerald-600' : 'bg-brand-50 text-brand-700'
          }`}
        >
          <Icon className="size-5.5" />
        </span>
        {done && (
          <span className="inline-flex size-6 items-center justify-center rounded-full bg-emerald-500 text-white">
            <CheckIcon className="size-4" />
            <span className="sr-only">Done</span>
          </span>
        )}
      </div>
      <h2 className="mt-3 text-sm font-medium text-slate-500 sm:mt-4">{title}</h2>
      {detail && <p className="mt-0.5 text-sm wrap-anywhere text-slate-700">{detail}</p>}
      <div className="mt-auto pt-3 sm:pt-4">
        {action ?? (
          <p className={`text-base font-semibold ${done ? 'text-emerald-700' : 'text-ink-900'}`}>{status}</p>
        )}
      </div>
    </section>
  );
}

/** The grid the tiles sit in: two columns up to wide screens, then four in a row. */
export function StatusTileGrid({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">{children}</div>;
}
