import { LIMIT_WINDOW_WORDS, type LimitsResponse } from '@offzero/shared/api/limits';
import { SettingsCard } from '../../../components/ui/settings-card';
import { Button } from '../../../components/ui/button';
import { formatUsdNumber } from '../../../lib/format';
import { useLimits } from '../../../domain/limits';

/**
 * How much the customer may still trade, buys and sells together, over the rolling 24 hours, 7 days
 * and 30 days of their tier (docs/design.md). Read afresh after every order.
 */
export function LimitsCard() {
  const limits = useLimits();
  return (
    <SettingsCard
      title="Limits"
      description={
        limits.data
          ? `Tier ${limits.data.tier}. What you can still buy and sell, counted over rolling periods.`
          : 'What you can still buy and sell, counted over rolling periods.'
      }
      testId="limits-card"
    >
      {limits.isPending ? (
        <div aria-hidden="true" className="space-y-4">
          {[0, 1, 2].map((row) => (
            <div key={row} className="h-9 animate-pulse rounded-lg bg-slate-100" />
          ))}
        </div>
      ) : limits.isError ? (
        <div className="flex flex-col items-start gap-3 text-sm text-slate-600">
          <p>Your limits are not available right now.</p>
          <Button variant="outline" size="sm" onClick={() => void limits.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <LimitRows limits={limits.data} />
      )}
    </SettingsCard>
  );
}

function LimitRows({ limits }: { limits: LimitsResponse }) {
  return (
    <ul className="space-y-4">
      {limits.windows.map(({ window, limitUsd, usedUsd, remainingUsd }) => {
        const usedShare = limitUsd > 0 ? Math.min(1, usedUsd / limitUsd) : 1;
        const label = `${LIMIT_WINDOW_WORDS[window].label} limit`;
        return (
          <li key={window} data-testid={`limit-${window}`}>
            <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 text-sm">
              <span className="font-medium text-ink-900 first-letter:uppercase">{label}</span>
              <span className="text-slate-600 tabular-nums">
                <span className="font-semibold text-ink-900">{formatUsdNumber(remainingUsd)}</span> left of{' '}
                {formatUsdNumber(limitUsd)}
              </span>
            </div>
            <div
              role="meter"
              aria-label={`${label} used`}
              aria-valuemin={0}
              aria-valuemax={limitUsd}
              aria-valuenow={usedUsd}
              aria-valuetext={`${formatUsdNumber(usedUsd)} used of ${formatUsdNumber(limitUsd)}`}
              className="mt-1.5 h-2 overflow-hidden rounded-full bg-slate-100"
            >
              <div
                className={`h-full rounded-full ${usedShare >= 1 ? 'bg-amber-500' : 'bg-brand-500'}`}
                style={{ width: `${usedShare * 100}%` }}
              />
            </div>
          </li>
        );
      })}
    </ul>
  );
}
