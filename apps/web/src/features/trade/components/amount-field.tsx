import { useId, useState, type ReactNode } from 'react';
import { readTypedAmount } from '@offzero/shared/money/money';
import { readAmountInput, type AmountSource } from '../utils/quote-fields';

/**
 * A money amount the customer types as they write money: digits, commas between thousands, one point,
 * and for dollars a leading `$`; no more decimals than the unit has. A pasted amount
 * with extra decimals is rounded down with a note under the field; letters or several points are
 * refused with a message, and the field keeps its amount. Text that could mean two amounts ('1,00')
 * stays in the field with a message saying how to write it (once the customer leaves the field, while
 * it may still be a grouping being typed). The currency sits inside the field.
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
  unit,
}: {
  /** What the amount counts: how a `$` and a point before three digits are read. */
  unit: AmountSource;
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
  const [changeNote, setNote] = useState<{ text: string; refused: boolean } | null>(null);
  const [focused, setFocused] = useState(false);
  const typed = readTypedAmount(value, unit);
  const note =
    changeNote ??
    (typed.kind === 'unclear' && !(typed.incomplete && focused)
      ? { text: typed.message, refused: true }
      : null);
  const describedBy = [hint ? `${id}-hint` : null, note ? `${id}-note` : null].filter(Boolean).join(' ');
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
          aria-describedby={describedBy || undefined}
          aria-invalid={note?.refused ? true : undefined}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onChange={(event) => {
            const input = readAmountInput(event.target.value, maxDecimals, unit);
            if (input.kind === 'refused') {
              setNote({ text: input.message, refused: true });
              return;
            }
            setNote(input.note ? { text: input.note, refused: false } : null);
            onChange(input.text);
          }}
          className="h-14 w-full min-w-0 flex-1 bg-transparent text-xl font-semibold text-ink-900 tabular-nums outline-none placeholder:text-slate-300"
        />
        {currency}
      </div>
      {note && (
        <p
          id={`${id}-note`}
          role={note.refused ? 'alert' : 'status'}
          className={`mt-1.5 text-xs ${note.refused ? 'text-red-600' : 'text-amber-700'}`}
        >
          {note.text}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}
