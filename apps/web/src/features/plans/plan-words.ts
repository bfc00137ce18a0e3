import type { Plan, PlanFrequency, PlanRunStatus } from '@offzero/shared/api/plans';

// Recurring buys in the customer's words (docs/design.md, "Recurring buys").

export const FREQUENCY_WORDS: Record<PlanFrequency, string> = {
  weekly: 'every week',
  biweekly: 'every two weeks',
  monthly: 'every month',
};

export const RUN_STATUS_WORDS: Record<PlanRunStatus, string> = {
  claimed: 'Starting',
  debiting: 'Debiting your bank',
  holding: 'Bank payment received; on hold',
  paid: 'Paid; bitcoin in the next payout',
  returned: 'Returned by your bank',
  reversed: 'Reversed by your bank',
  skipped: 'Skipped',
  failed: 'Not bought',
};

/** "$50" for whole dollars, "$50.25" otherwise. */
export function planDollars(amountUsd: number): string {
  return Number.isInteger(amountUsd) ? `$${amountUsd.toLocaleString('en-US')}` : `$${amountUsd.toFixed(2)}`;
}

const dayAt = (day: string) => new Date(`${day}T12:00:00Z`);

/** "Friday" within the coming week, else "Dec 12" (the plan's day, as the bank counts days). */
export function runDayWords(day: string, today: Date = new Date()): string {
  const at = dayAt(day);
  const days = (at.getTime() - dayAt(today.toISOString().slice(0, 10)).getTime()) / 86_400_000;
  if (days === 0) return 'today';
  if (days > 0 && days < 7) return at.toLocaleDateString('en-US', { weekday: 'long', timeZone: 'UTC' });
  return at.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** "Next buy: $50 on Friday" for the soonest active plan, or null without one. */
export function nextBuyLine(plans: readonly Plan[], today: Date = new Date()): string | null {
  const next = plans
    .filter((plan) => plan.status === 'active')
    .sort((a, b) => a.nextRunOn.localeCompare(b.nextRunOn))[0];
  if (!next) return null;
  const when = runDayWords(next.nextRunOn, today);
  return `Next buy: ${planDollars(next.amountUsd)} ${when === 'today' ? 'today' : `on ${when}`}`;
}
