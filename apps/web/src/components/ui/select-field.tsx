import { useId, type ComponentProps, type ReactNode } from 'react';
import { FieldMessage, inputStyles } from './text-field';
import { ChevronDownIcon } from './icons';

export interface SelectFieldProps extends Omit<ComponentProps<'select'>, 'id'> {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
}

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
          className={inputStyles(Boolean(error), 'appearance-none pr-10')}
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
