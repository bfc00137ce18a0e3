import { overLimitMessage, type LimitTier, type LimitWindow } from '@offzero/shared/api/limits';
import { formatCentsAsCurrency } from '@offzero/shared/currency/format-currency';
import type { Cents } from '@offzero/shared/money/money';
import type { GlobalSettingsRow } from '../db/schema';
import type { WindowUse } from './limits.repository';

/** The rolling windows of docs/design.md, shortest first (the first one an order crosses is named). */
const WINDOWS: readonly { window: LimitWindow; period: keyof WindowUse; ms: number }[] = [
  { window: '24h', period: 'day', ms: 24 * 3_600_000 },
  { window: '7d', period: 'week', ms: 7 * 24 * 3_600_000 },
  { window: '30d', period: 'month', ms: 30 * 24 * 3_600_000 },
];

export interface LimitWindowState {
  window: LimitWindow;
  limitCents: Cents;
  usedCents: Cents;
  /** Never below zero, even when an admin lowered the limit under what was already used. */
  remainingCents: Cents;
}

/** Where each window starts, counted back from `now`. */
export function windowStarts(now: Date): { day: Date; week: Date; month: Date } {
  const back = (ms: number) => new Date(now.getTime() - ms);
  const [day, week, month] = WINDOWS.map(({ ms }) => back(ms)) as [Date, Date, Date];
  return { day, week, month };
}

/** The tier's limits from the settings, in cents. */
export function tierLimits(settings: GlobalSettingsRow, tier: LimitTier): WindowUse {
  return tier === 2
    ? {
        day: settings.limitTier2DayCents,
        week: settings.limitTier2WeekCents,
        month: settings.limitTier2MonthCents,
      }
    : {
        day: settings.limitTier1DayCents,
        week: settings.limitTier1WeekCents,
        month: settings.limitTier1MonthCents,
      };
}

export function limitWindowStates(limits: WindowUse, used: WindowUse): LimitWindowState[] {
  return WINDOWS.map(({ window, period }) => {
    const remaining = limits[period] - used[period];
    return {
      window,
      limitCents: limits[period],
      usedCents: used[period],
      remainingCents: remaining > 0n ? remaining : 0n,
    };
  });
}

/** The message naming the first window an order of `valueCents` would cross, or null when all hold. */
export function overLimitRefusal(states: readonly LimitWindowState[], valueCents: Cents): string | null {
  const crossed = states.find((state) => valueCents > state.remainingCents);
  return crossed ? overLimitMessage(crossed.window, formatCentsAsCurrency(crossed.remainingCents)) : null;
}
