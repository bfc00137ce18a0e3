import type { ReactNode } from 'react';
import { TextField } from './text-field';

export const CODE_LENGTH = 6;

/**
 * The 6-digit one-time code: one field (so pasting and the phone's "fill code from SMS" work), digits
 * only, shown large and spaced out.
 */
export function CodeField({
  value,
  onChange,
  error,
  label = 'Verification code',
  hint,
  autoFocus,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  label?: ReactNode;
  hint?: ReactNode;
  autoFocus?: boolean;
}) {
  return (
    <TextField
      label={label}
      name="code"
      value={value}
      onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH))}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={CODE_LENGTH}
      placeholder="••••••"
      autoFocus={autoFocus}
      error={error}
      hint={hint}
      inputClassName="h-14 text-center font-mono text-2xl! tracking-[0.5em] placeholder:tracking-[0.5em]"
    />
  );
}
