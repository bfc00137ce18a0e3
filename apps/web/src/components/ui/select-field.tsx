import { useId, type ComponentProps, type ReactNode } from 'react';
import { FieldMessage } from './text-field';
import { ChevronDownIcon } from './icons';

export interface SelectFieldProps extends Omit<ComponentProps<'select'>, 'id'> {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
}

// The text fields' look, without their read-only styling: browsers count every <select> as
// ':read-only', which would grey it out and hide the red border of an error.
const selectStyles = (invalid: boolean) =>
  [
    'block h-12 w-full min-w-0 appearance-none rounded-xl border bg-white pr-10 pl-4 text-base text-ink-900 shadow-xs outline-none transition-colors sm:text-sm',
    'focus:ring-2 disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500',
    invalid
      ? 'border-red-500 focus:border-red-500 focus:ring-red-500/25'
      : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30',
  ].join(' ');

/** A labelled native select (the phone's own picker on mobile), styled like the text fields. */
export function SelectField({ label, error, hint, className, children, ...props }: SelectFieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  const message = error ?? hint;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="relative mt-1.5">
        <select
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={message ? messageId : undefined}
          className={selectStyles(Boolean(error))}
          {...props}
        >
          {children}
        </select>
        <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-3.5 size-4.5 -translate-y-1/2 text-slate-500" />
      </div>
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}
