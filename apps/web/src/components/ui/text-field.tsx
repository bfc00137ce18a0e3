import { useId, type ComponentProps, type ReactNode } from 'react';

export const inputStyles = (invalid = false, className = '') =>
  [
    // 16px text on phones, so iOS does not zoom into the field.
    'block h-12 w-full min-w-0 rounded-xl border bg-white px-4 text-base text-ink-900 shadow-xs outline-none transition-colors sm:text-sm',
    'placeholder:text-slate-500 focus:ring-2',
    'read-only:border-slate-200 read-only:bg-slate-50 read-only:text-slate-600 read-only:shadow-none',
    invalid
      ? 'border-red-500 focus:border-red-500 focus:ring-red-500/25'
      : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30',
    className,
  ].join(' ');

export interface TextFieldProps extends Omit<ComponentProps<'input'>, 'id'> {
  label: ReactNode;
  /** Shown under the field in red; also marks the field invalid for assistive technology. */
  error?: string | null;
  /** A quiet line under the field (hidden while an error shows). */
  hint?: ReactNode;
  /** Adds "(optional)" after the label. */
  optional?: boolean;
  inputClassName?: string;
}

/** A labelled text input with its hint and error message wired up for screen readers. */
export function TextField({
  label,
  error,
  hint,
  optional,
  className,
  inputClassName,
  ...props
}: TextFieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  const message = error ?? hint;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
        {optional && <span className="font-normal text-slate-500"> (optional)</span>}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={message ? messageId : undefined}
        className={inputStyles(Boolean(error), `mt-1.5 ${inputClassName ?? ''}`)}
        {...props}
      />
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}

export function FieldMessage({ id, error, hint }: { id: string; error?: string | null; hint?: ReactNode }) {
  if (error) {
    return (
      <p id={id} className="mt-1.5 text-sm text-red-600">
        {error}
      </p>
    );
  }
  if (hint) {
    return (
      <p id={id} className="mt-1.5 text-sm text-slate-500">
        {hint}
      </p>
    );
  }
  return null;
}
