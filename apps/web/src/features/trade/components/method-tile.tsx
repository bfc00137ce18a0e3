import type { ReactNode } from 'react';
import { railLabel, type PaymentRail, type SellPayoutRail } from '@offzero/shared/rails/rails';
import { PaymentMethodBadge } from '../../../components/ui/payment-methods';
import { Spinner } from '../../../components/ui/spinner';

/** A rail a sell is paid out by, as its tile offers it. */
export type TileMethod = SellPayoutRail;

/** One payment method to choose: its badge, name and a line about it. */
export function MethodTile({
  method,
  detail,
  onSelect,
  loading = false,
  disabled = false,
}: {
  /** A rail a buy is paid by by hand, or a sell paid out by. */
  method: PaymentRail;
  detail: ReactNode;
  onSelect: () => void;
  loading?: boolean;
  disabled?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onSelect}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className="flex w-full items-center gap-3 rounded-2xl border border-slate-200 bg-white p-3 text-left transition-colors hover:border-brand-400 hover:bg-brand-50/40 disabled:cursor-not-allowed disabled:opacity-60"
    >
      <PaymentMethodBadge method={method} className="shrink-0" />
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-semibold text-ink-900">{railLabel(method)}</span>
        <span className="block text-xs text-slate-500">{detail}</span>
      </span>
      {loading && <Spinner className="size-4 text-slate-500" />}
    </button>
  );
}

/** The methods row's empty state. */
export function NoActiveMethods() {
  return (
    <p className="rounded-2xl bg-slate-50 p-4 text-center text-sm text-slate-600 ring-1 ring-slate-200">
      No active payment methods available.
    </p>
  );
}
