import { useId, useState } from 'react';
import type { QuoteForm } from '@offzero/shared/api/orders';
import type { Cents } from '@offzero/shared/money/money';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../lib/toast';
import { ChevronDownIcon } from '../../../components/ui/icons';
import type { ZodForm } from '../../../lib/forms';
import { getPreferredCurrency, savePreferredCurrency } from '../../../lib/session-storage';
import type { TradeSettings } from '../api/get-trade-settings';
import { formatUsdCents } from '../../../lib/format';
import { MAX_DECIMALS, type AmountSource } from '../utils/quote-fields';
import type { TradeSide } from '../utils/trade-checks';
import { AmountField } from './amount-field';
import { CurrencyCoin, CurrencyTag } from './currency-tag';
import { RateLine } from './rate-line';
import { RemainingLimitNote } from './remaining-limit-note';

/** Currencies customers can be paid in; US dollars only for now. */
const PAYOUT_CURRENCIES = ['USD'] as const;

/**
 * The quote step of both flows: 'You Pay' and 'You Receive', each editable, the other
 * recomputed; the minimum order, the fee and the estimated rate with its refresh countdown; Continue.
 * The flow owns `form` (what was typed outlives this step); Continue submits it, and `onContinue` runs
 * the spec's ordered checks once it is valid.
 */
export function QuoteStep({
  side,
  form,
  texts,
  settings,
  priceCents,
  secondsToRefresh,
  onContinue,
  continueLoading,
}: {
  side: TradeSide;
  form: ZodForm<QuoteForm, QuoteForm>;
  texts: { usd: string; btc: string };
  settings: TradeSettings;
  priceCents: Cents | null;
  secondsToRefresh: number;
  onContinue: () => void;
  continueLoading: boolean;
}) {
  // Typing in a field makes it the one the quote is computed from.
  const onChange = (source: AmountSource, text: string) => {
    form.setValue('source', source);
    form.setValue('text', text);
  };
  const usdField = (label: string, currency: 'tag' | 'select') => (
    <AmountField
      label={label}
      name={`${side}-usd`}
      value={texts.usd}
      onChange={(text) => onChange('usd', text)}
      unit="usd"
      maxDecimals={MAX_DECIMALS.usd}
      placeholder="0.00"
      currency={currency === 'tag' ? <CurrencyTag code="USD" /> : <PayoutCurrencySelect />}
      hint={
        side === 'buy'
          ? `Minimum order ${formatUsdCents(settings.minOrderCents)}`
          : `Minimum ${formatUsdCents(settings.minOrderCents)}, before bank charges`
      }
    />
  );
  const btcField = (label: string) => (
    <AmountField
      label={label}
      name={`${side}-btc`}
      value={texts.btc}
      onChange={(text) => onChange('btc', text)}
      unit="btc"
      maxDecimals={side === 'buy' ? MAX_DECIMALS.buyBtc : MAX_DECIMALS.sellBtc}
      placeholder={side === 'buy' ? '0.000000' : '0.00000000'}
      currency={<CurrencyTag code="BTC" />}
    />
  );

  // An amount that cannot be read as one stays in its field, with its message there and in a toast.
  const submit = form.handleSubmit(
    () => onContinue(),
    (errors) => {
      if (errors.text?.message) toast.error(errors.text.message);
    },
  );

  return (
    <form className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
      {side === 'buy' ? usdField('You Pay', 'tag') : btcField('You Pay')}
      <div className="space-y-1.5 rounded-xl bg-slate-50 px-3 py-2.5 ring-1 ring-slate-200/70">
        <p className="flex justify-between gap-3 text-xs text-slate-500">
          <span>Platform fee</span>
          <span className="font-semibold text-slate-700 tabular-nums">{settings.feePercent}%</span>
        </p>
        <RateLine priceCents={priceCents} secondsToRefresh={secondsToRefresh} />
      </div>
      {side === 'buy' ? btcField('You Receive') : usdField('You Receive', 'select')}
      <RemainingLimitNote />
      <Button type="submit" size="lg" fullWidth loading={continueLoading}>
        Continue
      </Button>
    </form>
  );
}

/** The payout currency (stored as `currency` in the browser, the product specification). */
function PayoutCurrencySelect() {
  const id = useId();
  const [currency, setCurrency] = useState(() => {
    const stored = getPreferredCurrency();
    return (PAYOUT_CURRENCIES as readonly string[]).includes(stored) ? stored : 'USD';
  });
  return (
    <span className="relative inline-flex shrink-0 items-center">
      <label htmlFor={id} className="sr-only">
        Currency
      </label>
      <span className="pointer-events-none absolute left-3">
        <CurrencyCoin code="USD" />
      </span>
      <select
        id={id}
        value={currency}
        onChange={(event) => {
          setCurrency(event.target.value);
          savePreferredCurrency(event.target.value);
        }}
        className="h-9 appearance-none rounded-full bg-slate-100 pr-8 pl-9 text-sm font-semibold text-ink-900 outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
      >
        {PAYOUT_CURRENCIES.map((code) => (
          <option key={code} value={code}>
            {code}
          </option>
        ))}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute right-2.5 size-4 text-slate-500" />
    </span>
  );
}
