/** The currency beside an amount field: a coin and its code. */
export function CurrencyTag({ code }: { code: 'USD' | 'BTC' }) {
  return (
    <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full bg-slate-100 px-3 py-1.5 text-sm font-semibold text-ink-900">
      <CurrencyCoin code={code} />
      {code}
    </span>
  );
}

export function CurrencyCoin({ code }: { code: 'USD' | 'BTC' }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-flex size-5 items-center justify-center rounded-full text-[11px] font-bold ${
        code === 'BTC' ? 'bg-brand-500 text-white' : 'bg-emerald-600 text-white'
      }`}
    >
      {code === 'BTC' ? <BitcoinGlyph /> : '$'}
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
