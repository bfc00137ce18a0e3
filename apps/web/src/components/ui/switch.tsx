import { useId, type ReactNode } from 'react';
import { Spinner } from './spinner';

/**
 * An on/off switch (role="switch"). It shows `checked` as given: the owner decides when the value
 * changes (for settings, only after the server accepted it). `busy` disables it and shows progress.
 */
export function Switch({
  label,
  description,
  checked,
  onChange,
  busy = false,
  testId,
}: {
  label: string;
  description?: ReactNode;
  checked: boolean;
  onChange: (next: boolean) => void;
  busy?: boolean;
  testId?: string;
}) {
  const id = useId();
  return (
    <div className="flex items-center justify-between gap-4 py-3 first:pt-0 last:pb-0">
      <div className="min-w-0">
        <p id={`${id}-label`} className="text-sm font-medium text-ink-900">
          {label}
        </p>
        {description && (
          <p id={`${id}-description`} className="mt-0.5 text-sm text-slate-500">
            {description}
          </p>
        )}
      </div>
      <div className="flex shrink-0 items-center gap-2">
        {busy && <Spinner className="size-4 text-slate-400" />}
        <button
          type="button"
          role="switch"
          data-testid={testId}
          aria-checked={checked}
          aria-labelledby={`${id}-label`}
          aria-describedby={description ? `${id}-description` : undefined}
          aria-busy={busy || undefined}
          disabled={busy}
          onClick={() => onChange(!checked)}
          className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors disabled:cursor-wait disabled:opacity-70 ${
            checked ? 'bg-brand-500' : 'bg-slate-300'
          }`}
        >
          <span
            aria-hidden="true"
            className={`inline-block size-5.5 rounded-full bg-white shadow transition-transform ${
              checked ? 'translate-x-5.75' : 'translate-x-0.75'
            }`}
          />
        </button>
      </div>
    </div>
  );
}
