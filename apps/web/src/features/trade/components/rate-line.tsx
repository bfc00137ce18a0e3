import type { Cents } from '@offzero/shared/money/money';
import { formatUsdCents } from '../../../lib/format';

/** '1 BTC ≈ $97,000.00 · refresh in 42s': the estimated rate and when it is fetched again. */
export function RateLine({
  priceCents,
  secondsToRefresh,
}: {
  priceCents: Cents | null;
  secondsToRefresh: number;
}) {
  return (
    <p className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-xs text-slate-500">
      <span>
        Estimated rate:{' '}
        <span className="font-semibold text-slate-700 tabular-nums">
          {priceCents === null ? '—' : `1 BTC ≈ ${formatUsdCents(priceCents)}`}
        </span>
      </span>
      {priceCents !== null && (
        <span className="tabular-nums" aria-live="off">
          refresh in {secondsToRefresh}s
        </span>
      )}
    </p>
  );
}
