import { useId } from 'react';
import PhoneInput from 'react-phone-number-input/max';
// Flags are bundled rather than fetched from a third-party site on every visit.
import flags from 'react-phone-number-input/flags';
import 'react-phone-number-input/style.css';
import { FieldMessage } from '../../../components/ui/text-field';

const MAX_DIGITS = 15;

/**
 * Phone number with a country selector (default United States). The value is E.164 ("+12025550123"),
 * or undefined while nothing usable is typed. At most 15 digits, the E.164 limit.
 */
export function PhoneField({
  value,
  onChange,
  error,
  hint,
  label = 'Phone number',
  autoFocus,
}: {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  error?: string | null;
  hint?: string;
  label?: string;
  autoFocus?: boolean;
}) {
  const id = useId();
  const messageId = `${id}-message`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <PhoneInput
        id={id}
        name="phone"
        defaultCountry="US"
        flags={flags}
        limitMaxLength
        autoComplete="tel"
        autoFocus={autoFocus}
        value={value}
        onChange={(next) => {
          if (next && next.replace(/\D/g, '').length > MAX_DIGITS) return;
          onChange(next);
        }}
        numberInputProps={{
          className:
            'h-full bg-transparent text-base text-ink-900 outline-none placeholder:text-slate-500 sm:text-sm',
        }}
        placeholder="(201) 555-0123"
        // The library's focus colour, in the brand orange.
        style={{ '--PhoneInput-color--focus': 'var(--color-brand-500)' }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? messageId : undefined}
        className={`phone-field mt-1.5 flex h-12 items-center gap-3 rounded-xl border bg-white pr-4 pl-3.5 shadow-xs focus-within:ring-2 ${
          error
            ? 'border-red-500 focus-within:ring-red-500/25'
            : 'border-slate-300 focus-within:border-brand-500 focus-within:ring-brand-500/30'
        }`}
      />
      <FieldMessage id={messageId} error={error} hint={hint} />
    </div>
  );
}
