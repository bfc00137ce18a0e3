import type { ReactNode } from 'react';
import { ArrowLeftIcon } from '../../../components/ui/icons';

/** A step's title, with a Back button when the customer may return to the previous step. */
export function StepHeading({ children, onBack }: { children: ReactNode; onBack?: () => void }) {
  return (
    <div className="flex items-center gap-2">
      {onBack && (
        <button
          type="button"
          onClick={onBack}
          aria-label="Back"
          className="-ml-2 inline-flex size-9 shrink-0 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 hover:text-ink-900"
        >
          <ArrowLeftIcon className="size-4.5" />
        </button>
      )}
      <h3 className="text-base font-semibold text-ink-900">{children}</h3>
    </div>
  );
}
