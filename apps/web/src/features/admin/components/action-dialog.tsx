import { useId, type ComponentProps, type FormEvent, type ReactNode } from 'react';
import { z } from 'zod';
import { Modal } from '../../../components/ui/modal';
import { Button } from '../../../components/ui/button';
import { FieldMessage } from '../../../components/ui/text-field';
import { AlertIcon } from '../../../components/ui/icons';

/** A reason or note of at least 3 characters, as the server asks for one; `message` says what is missing. */
export const reasonSchema = (message: string) => z.string().trim().min(3, { error: message });

/**
 * The confirmation every console action goes through: it says what will happen, collects what the
 * action needs (a reason, a transaction id...), and shows the server's refusal in place. While the call
 * runs the dialog cannot be dismissed.
 */
export function ActionDialog({
  open,
  onClose,
  title,
  description,
  consequences,
  confirmLabel,
  tone = 'primary',
  busy,
  error,
  onSubmit,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  /** What will happen, as a short list. */
  consequences?: ReactNode[];
  confirmLabel: string;
  tone?: 'primary' | 'danger' | 'secondary';
  busy: boolean;
  error?: string | null;
  onSubmit: () => void;
  children?: ReactNode;
}) {
  const formId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      description={description}
      dismissible={!busy}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Go back
          </Button>
          <Button type="submit" form={formId} variant={tone} loading={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="space-y-4">
        {consequences && consequences.length > 0 && (
          <ul className="space-y-1.5 rounded-xl bg-slate-50 p-3.5 text-sm text-slate-700 ring-1 ring-slate-200/70">
            {consequences.map((line, index) => (
              <li key={index} className="flex gap-2">
                <span aria-hidden="true" className="mt-2 size-1.5 shrink-0 rounded-full bg-brand-500" />
                <span className="min-w-0">{line}</span>
              </li>
            ))}
          </ul>
        )}
        {children}
        {error && (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-xl bg-red-50 p-3 text-sm text-red-700 ring-1 ring-red-600/15"
          >
            <AlertIcon className="mt-0.5 size-4 shrink-0" />
            <span>{error}</span>
          </p>
        )}
      </form>
    </Modal>
  );
}

export interface TextAreaFieldProps extends Omit<ComponentProps<'textarea'>, 'id'> {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  optional?: boolean;
}

/** A labelled multi-line input in the text fields' style. */
export function TextAreaField({ label, error, hint, optional, className, ...props }: TextAreaFieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
        {optional && <span className="font-normal text-slate-500"> (optional)</span>}
      </label>
      <textarea
        id={id}
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        className={`mt-1.5 block w-full min-w-0 rounded-xl border bg-white px-4 py-3 text-base text-ink-900 shadow-xs outline-none transition-colors placeholder:text-slate-500 focus:ring-2 sm:text-sm ${
          error
            ? 'border-red-500 focus:border-red-500 focus:ring-red-500/25'
            : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30'
        }`}
        {...props}
      />
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}
