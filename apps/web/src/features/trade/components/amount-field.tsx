import { useId, type ReactNode } from 'react';
import { acceptsAmountText } from '../utils/quote-fields';

/**
 * A money amount the customer types: digits and one point only, no more decimals than the unit has
 * (anything else is refused as it is typed, spec section 5). The currency sits inside the field.
 */
export function AmountField({
  label,
  value,
  onChange,
  maxDecimals,
  currency,
  placeholder,
  name,
  hint,
}: {
  label: string;
  value: string;
  onChange: (text: string) => void;
  maxDecimals: number;
  currency: ReactNode;
  placeholder: string;
  name: string;
  hint?: ReactNode;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <div className="mt-1.5 flex items-center gap-2 rounded-2xl border border-slate-200 bg-white pr-2 pl-4 focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30">
        <input
          id={id}
          name={name}
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          value={value}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(event) => {
            const text = event.target.value.replace(',', '.');
            if (acceptsAmountText(text, maxDecimals)) onChange(text);
          }}
          className="h-14 w-full min-w-0 flex-1 bg-transparent text-xl font-semibold text-ink-900 tabular-nums outline-none placeholder:text-slate-300"
        />
        {currency}
      </div>
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
