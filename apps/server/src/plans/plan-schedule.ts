import type { PlanFrequency } from '@offzero/shared/api/plans';

/**
 * The calendar of recurring buys (docs/design.md, "Recurring buys"): days are the bank's business days
 * in America/New_York, written YYYY-MM-DD; a monthly plan keeps the day of the month it started on
 * (the 31st runs on the last day of a shorter month).
 */

const BANK_TIME_ZONE = 'America/New_York';
const DAY_MS = 86_400_000;

const bankDayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: BANK_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The bank's calendar day at `at`. */
export function bankDay(at: Date): string {
  return bankDayFormat.format(at);
}

/** Whether `text` is a real calendar day written YYYY-MM-DD (2026-02-30 is not). */
export function isCalendarDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const parsed = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === text;
}

const toUtc = (day: string) => new Date(`${day}T00:00:00Z`);
const fromUtc = (at: Date) => at.toISOString().slice(0, 10);

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((toUtc(to).getTime() - toUtc(from).getTime()) / DAY_MS);
}

export function addDays(day: string, days: number): string {
  return fromUtc(new Date(toUtc(day).getTime() + days * DAY_MS));
}

/** The run after `runOn` of a plan that started on `anchorOn`. */
export function nextRunAfter(runOn: string, frequency: PlanFrequency, anchorOn: string): string {
  if (frequency === 'weekly') return addDays(runOn, 7);
  if (frequency === 'biweekly') return addDays(runOn, 14);
  const [year, month] = runOn.split('-').map(Number) as [number, number];
  const anchorDay = Number(anchorOn.slice(8, 10));
  const nextMonthIndex = month; // 0-based index of the month after `month`
  const lastDay = new Date(Date.UTC(year, nextMonthIndex + 1, 0)).getUTCDate();
  return fromUtc(new Date(Date.UTC(year, nextMonthIndex, Math.min(anchorDay, lastDay))));
}

/** How many runs of a plan fall at most into a window of `days` days (the limits check a plan by it). */
export function runsWithin(frequency: PlanFrequency, days: 1 | 7 | 30): number {
  const every = { weekly: 7, biweekly: 14, monthly: 31 }[frequency];
  return Math.max(1, Math.ceil(days / every));
}

/** `at` plus `days` business days (weekends skipped); 0 is `at` itself. */
export function addBusinessDays(at: Date, days: number): Date {
  const result = new Date(at.getTime());
  let left = days;
  while (left > 0) {
    result.setTime(result.getTime() + DAY_MS);
    const weekday = result.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return result;
}
