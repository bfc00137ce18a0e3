import type { ReactNode } from 'react';
import { Button } from './button';
import { AlertIcon } from './icons';

/** The title block of a signed-in page. */
export function PageHeader({
  title,
  description,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight text-ink-900 sm:text-3xl">{title}</h1>
        {description && <p className="mt-1.5 text-sm text-slate-600 sm:text-base">{description}</p>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** Grey blocks in the shape of a page while its data loads. */
export function PageSkeleton({ blocks = 2 }: { blocks?: number }) {
  return (
    <div role="status" aria-label="Loading" className="animate-pulse">
      <div className="h-8 w-64 max-w-full rounded-lg bg-slate-200" />
      <div className="mt-3 h-4 w-96 max-w-full rounded bg-slate-200" />
      <div className="mt-8 grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {Array.from({ length: blocks }, (_, index) => (
          <div key={index} className="h-44 rounded-2xl bg-slate-200/70" />
        ))}
      </div>
    </div>
  );
}

/** A page whose data could not be loaded: the reason and a retry. */
export function PageLoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="rounded-2xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200 sm:p-10"
    >
      <AlertIcon className="mx-auto size-8 text-amber-500" />
      <p className="mt-3 font-semibold text-ink-900">We could not load this page.</p>
      <p className="mt-1 text-sm text-slate-600">{message}</p>
      <Button variant="outline" className="mt-5" onClick={onRetry}>
        Try again
      </Button>
    </div>
  );
}
