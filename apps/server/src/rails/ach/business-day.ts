/**
 * The bank's calendar for ACH files (docs/design.md, "ACH file"): days are calendar days in New York,
 * and entries settle on a banking day, a weekday that is not a Federal Reserve holiday. A holiday on a
 * Sunday is kept on the Monday; one on a Saturday is not moved (the Reserve Banks open the Friday).
 */

export const BANK_TIME_ZONE = 'America/New_York';

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: BANK_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const clockFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: BANK_TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A day written YYYY-MM-DD that exists in the calendar. */
export function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

/** The day it is in New York at `instant`. */
export function bankDayAt(instant: Date): string {
  return dayFormat.format(instant);
}

/** The time it is in New York at `instant`, HH:MM. */
export function bankTimeAt(instant: Date): string {
  return clockFormat.format(instant);
}

/** The instant a New York day begins (midnight there, never inside a daylight-saving change). */
export function bankDayStart(day: string): Date {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  for (const offsetHours of [4, 5]) {
    const candidate = new Date(utcMidnight + offsetHours * 3_600_000);
    if (bankDayAt(candidate) === day && bankTimeAt(candidate) === '00:00') return candidate;
  }
  throw new Error(`no New York midnight found for ${day}`);
}

/** The day after `day`. */
export function nextDay(day: string): string {
  return addDays(day, 1);
}

/** `day` itself when the banks settle on it, else the next day they do. */
export function settlementDayOnOrAfter(day: string): string {
  let candidate = day;
  while (!isBankingDay(candidate)) candidate = nextDay(candidate);
  return candidate;
}

/** A weekday that is not a Federal Reserve holiday. */
export function isBankingDay(day: string): boolean {
  const weekday = weekdayOf(day);
  if (weekday === 0 || weekday === 6) return false;
  return !federalReserveHolidays(Number(day.slice(0, 4))).has(day);
}

/** The Federal Reserve's holidays of a year, as the days the banks are closed. */
export function federalReserveHolidays(year: number): Set<string> {
  const fixed = [
    [1, 1], // New Year's Day
    [6, 19], // Juneteenth
    [7, 4], // Independence Day
    [11, 11], // Veterans Day
    [12, 25], // Christmas Day
  ].map(([month, date]) => sundayToMonday(ymd(year, month!, date!)));
  return new Set([
    ...fixed,
    nthWeekday(year, 1, 1, 3), // Martin Luther King Jr. Day: third Monday of January
    nthWeekday(year, 2, 1, 3), // Washington's Birthday: third Monday of February
    lastWeekday(year, 5, 1), // Memorial Day: last Monday of May
    nthWeekday(year, 9, 1, 1), // Labor Day: first Monday of September
    nthWeekday(year, 10, 1, 2), // Columbus Day: second Monday of October
    nthWeekday(year, 11, 4, 4), // Thanksgiving: fourth Thursday of November
  ]);
}

function sundayToMonday(day: string): string {
  return weekdayOf(day) === 0 ? nextDay(day) : day;
}

function nthWeekday(year: number, month: number, weekday: number, nth: number): string {
  const first = ymd(year, month, 1);
  const shift = (weekday - weekdayOf(first) + 7) % 7;
  return addDays(first, shift + (nth - 1) * 7);
}

function lastWeekday(year: number, month: number, weekday: number): string {
  const last = addDays(ymd(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1), -1);
  return addDays(last, -((weekdayOf(last) - weekday + 7) % 7));
}

function ymd(year: number, month: number, date: number): string {
  return new Date(Date.UTC(year, month - 1, date)).toISOString().slice(0, 10);
}

function weekdayOf(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
