import { formatUsdCents } from '../../../lib/format';
import { tightestWindow, useLimits } from '../../../domain/limits';

/**
 * What the signed-in customer can still trade under their limits (docs/design.md), shown at the quote
 * step before they type an amount: the window with the least left, in the words the server's refusal
 * uses. Nothing for a visitor, or while the limits load.
 */
export function RemainingLimitNote() {
  const limits = useLimits();
  const tightest = limits.data ? tightestWindow(limits.data) : null;
  if (!tightest) return null;
  const reached = tightest.remainingCents === 0n;
  return (
    <p
      data-testid="remaining-limit"
      className={`text-xs ${reached ? 'font-medium text-amber-700' : 'text-slate-500'}`}
    >
      {reached
        ? `You have reached your ${tightest.label} limit.`
        : `You can trade up to ${formatUsdCents(tightest.remainingCents)} more ${tightest.rest}.`}
    </p>
  );
}
