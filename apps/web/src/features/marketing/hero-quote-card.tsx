import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { Button } from '../../components/ui/button';
import { PaymentMethods } from '../../components/ui/payment-methods';
import { LockIcon } from '../../components/ui/icons';

type Side = 'buy' | 'sell';

const sides: Record<Side, { label: string; pay: string; receive: string; methods: string }> = {
  buy: { label: 'Buy', pay: 'USD', receive: 'BTC', methods: 'Pay by PayPal, Zelle, ACH or wire.' },
  sell: { label: 'Sell', pay: 'BTC', receive: 'USD', methods: 'Get paid by Zelle, ACH or wire.' },
};

/**
 * The visitor's version of the trade widget: it shows the shape of a quote but no prices, because
 * quotes are only made for signed-in customers. Continue leads to the login page.
 */
export function HeroQuoteCard() {
  const navigate = useNavigate();
  const id = useId();
  const [side, setSide] = useState<Side>('buy');
  const [amount, setAmount] = useState('');
  const tabRefs = useRef<Record<Side, HTMLButtonElement | null>>({ buy: null, sell: null });
  const current = sides[side];

  function select(next: Side) {
    setSide(next);
    setAmount('');
  }

  // Tabs follow the ARIA pattern: arrow keys move between them.
  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (
      event.key !== 'ArrowLeft' &&
      event.key !== 'ArrowRight' &&
      event.key !== 'Home' &&
      event.key !== 'End'
    )
      return;
    event.preventDefault();
    const next: Side = side === 'buy' ? 'sell' : 'buy';
    select(next);
    tabRefs.current[next]?.focus();
  }

  return (
    <div className="w-full rounded-3xl bg-white p-5 text-slate-900 shadow-2xl ring-1 shadow-black/30 ring-black/5 sm:p-7">
      <div role="tablist" aria-label="Trade" className="grid grid-cols-2 gap-1 rounded-full bg-slate-100 p-1">
        {(Object.keys(sides) as Side[]).map((key) => {
          const selected = key === side;
          return (
            <button
              key={key}
              ref={(element) => {
                tabRefs.current[key] = element;
              }}
              type="button"
              role="tab"
              id={`${id}-tab-${key}`}
              aria-selected={selected}
              aria-controls={`${id}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(key)}
              onKeyDown={onTabKeyDown}
              className={`h-10 rounded-full text-sm font-semibold transition-colors ${
                selected ? 'bg-ink-900 text-white shadow-sm' : 'text-slate-600 hover:text-ink-900'
              }`}
            >
              {sides[key].label}
            </button>
          );
        })}
      </div>

      <form
        id={`${id}-panel`}
        role="tabpanel"
        aria-labelledby={`${id}-tab-${side}`}
        className="mt-6 space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          void navigate(paths.login);
        }}
      >
        <div>
          <label htmlFor={`${id}-amount`} className="text-sm font-medium text-slate-700">
            You Pay
          </label>
          <div className="mt-2 flex items-center rounded-2xl border border-slate-200 bg-white px-4 focus-within:border-brand-500 focus-within:ring-2 focus-within:ring-brand-500/30">
            <input
              id={`${id}-amount`}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              placeholder={side === 'buy' ? '0.00' : '0.000000'}
              value={amount}
              onChange={(event) =>
                setAmount(event.target.value.replace(/[^\d.]/g, '').replace(/(\..*)\./g, '$1'))
              }
              className="h-14 w-full min-w-0 flex-1 bg-transparent text-xl font-semibold text-ink-900 outline-none placeholder:text-slate-300"
            />
            <CurrencyTag code={current.pay} />
          </div>
          <p className="mt-2 text-xs text-slate-500">{current.methods}</p>
        </div>

        <div>
          <span id={`${id}-receive`} className="text-sm font-medium text-slate-700">
            You Receive
          </span>
          <div
            aria-labelledby={`${id}-receive`}
            className="mt-2 flex min-h-14 items-center gap-3 rounded-2xl border border-dashed border-slate-200 bg-slate-50 px-4 py-3"
          >
            <LockIcon className="size-4 shrink-0 text-slate-400" />
            <p className="flex-1 text-sm text-slate-600">Live rates are shown after you sign in</p>
            <CurrencyTag code={current.receive} />
          </div>
        </div>

        <Button type="submit" size="lg" fullWidth>
          Continue
        </Button>

        <p className="text-center text-xs leading-5 text-slate-500">
          By continuing you agree to our{' '}
          <Link
            to={paths.termsOfUse}
            className="font-medium text-ink-900 underline underline-offset-2 hover:text-brand-700"
          >
            Terms of Use
          </Link>
          .
        </p>

        <div className="border-t border-slate-100 pt-4">
          <PaymentMethods className="justify-center" />
        </div>
      </form>
    </div>
  );
}

function CurrencyTag({ code }: { code: string }) {
  return (
    <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full bg-slate-100 px-3 py-1.5 text-sm font-semibold text-ink-900">
      <span
        aria-hidden="true"
        className={`inline-flex size-5 items-center justify-center rounded-full text-[11px] font-bold ${
          code === 'BTC' ? 'bg-brand-500 text-white' : 'bg-emerald-600 text-white'
        }`}
      >
        {code === 'BTC' ? <BitcoinGlyph /> : '$'}
      </span>
      {code}
    </span>
  );
}

/** The bitcoin sign, drawn: not every system font has the ₿ character. */
function BitcoinGlyph() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="size-3.5"
      fill="none"
      stroke="currentColor"
      strokeWidth={2.4}
      strokeLinecap="round"
    >
      <path d="M8.5 6h4.75a3 3 0 0 1 0 6H8.5m0 0h5.5a3 3 0 0 1 0 6H8.5M8.5 5v14M6.5 6h2M6.5 18h2M10.5 3.5V6M13.5 3.5V6M10.5 18v2.5M13.5 18v2.5" />
    </svg>
  );
}
