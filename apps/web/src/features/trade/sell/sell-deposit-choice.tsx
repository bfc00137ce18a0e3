import { useId } from 'react';
import type { SellDeposit } from '@offzero/shared/api/order-lightning';

/** Each way a seller can send their bitcoin, and when the order is credited (docs/design.md, "Lightning"). */
export const SELL_DEPOSIT_OPTIONS: readonly { id: SellDeposit; label: string; arrival: string }[] = [
  {
    id: 'onchain',
    label: 'On-chain',
    arrival: 'Credited once the network confirms it, usually 10 to 60 minutes.',
  },
  {
    id: 'lightning',
    label: 'Lightning',
    arrival: 'Credited in seconds, once your wallet pays the invoice.',
  },
];

/** The words for how a sell's bitcoin is sent, e.g. on the confirmation. */
export function sellDepositLabel(deposit: SellDeposit): string {
  return SELL_DEPOSIT_OPTIONS.find((option) => option.id === deposit)?.label ?? deposit;
}

/** When a sell sent this way is credited. */
export function sellDepositArrival(deposit: SellDeposit): string {
  return SELL_DEPOSIT_OPTIONS.find((option) => option.id === deposit)?.arrival ?? '';
}

/**
 * How the customer sends their bitcoin: on chain to the order's address, or by Lightning (the order
 * then carries an invoice beside the address, and one QR code pays either way).
 */
export function SellDepositChoice({
  value,
  onChange,
  disabled = false,
}: {
  value: SellDeposit;
  onChange: (deposit: SellDeposit) => void;
  disabled?: boolean;
}) {
  const name = useId();
  return (
    <fieldset className="space-y-2" data-testid="sell-deposit-choice" disabled={disabled}>
      <legend className="mb-2 text-sm font-semibold text-ink-900">How you send the bitcoin</legend>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {SELL_DEPOSIT_OPTIONS.map((option) => (
          <label
            key={option.id}
            className="flex cursor-pointer items-start gap-2.5 rounded-xl px-3 py-2.5 ring-1 ring-slate-200 has-checked:bg-brand-50 has-checked:ring-brand-300"
          >
            <input
              type="radio"
              name={name}
              value={option.id}
              checked={value === option.id}
              onChange={() => onChange(option.id)}
              className="mt-0.5 size-4 shrink-0 accent-brand-600"
            />
            <span className="min-w-0">
              <span className="block text-sm font-medium text-ink-900">{option.label}</span>
              <span className="block text-xs leading-5 text-slate-500">{option.arrival}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
