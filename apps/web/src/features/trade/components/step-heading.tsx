import type { ReactNode } from 'react';
import { ArrowLeftIcon } from '../../../components/ui/icons';

/**
 * What marks a step's title. Each new step replaces the control the customer used, so the widget moves
 * keyboard focus here (focusable by script only) rather than letting it fall to the page's body.
 */
export const stepHeadingProps = { 'data-step-heading': '', tabIndex: -1 } as const;

/**
 * Moves focus to the step heading in `root`, or to its first field when the step has no heading; only
 * when focus was in `root` or fell to the body, never away from what the customer does elsewhere on
 * the page (a deposit can arrive while they read another card).
 */
export function focusStepHeading(root: HTMLElement): void {
  const current = document.activeElement;
  if (current && current !== document.body && !root.contains(current)) return;
  const target = root.querySelector<HTMLElement>('[data-step-heading]') ?? root.querySelector('input');
  target?.focus({ preventScroll: true });
}

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
      <h3 {...stepHeadingProps} className="text-base font-semibold text-ink-900 outline-none">
        {children}
      </h3>
    </div>
  );
}
