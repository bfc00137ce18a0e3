import { usePlans } from '../api/plans';
import { nextBuyLine } from '../plan-words';

/** The dashboard's line about the next recurring buy ("Next buy: $50 on Friday"), when there is one. */
export function NextBuyLine() {
  const plans = usePlans();
  const line = plans.data ? nextBuyLine(plans.data) : null;
  if (!line) return null;
  return (
    <p className="text-sm font-medium text-slate-700" data-testid="next-buy-line">
      {line}
    </p>
  );
}
