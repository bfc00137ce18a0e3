import { describe, expect, it } from 'vitest';
import {
  addBusinessDays,
  bankDay,
  daysBetween,
  isCalendarDay,
  nextRunAfter,
  runsWithin,
} from './plan-schedule';

describe('the calendar of recurring buys', () => {
  it('counts days as the bank does, in New York', () => {
    // 03:00 UTC on the 2nd is still the 1st in New York.
    expect(bankDay(new Date('2026-12-02T03:00:00Z'))).toBe('2026-12-01');
    expect(bankDay(new Date('2026-12-02T06:00:00Z'))).toBe('2026-12-02');
  });

  it('knows a real calendar day', () => {
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2026-13-01')).toBe(false);
    expect(isCalendarDay('2026-1-01')).toBe(false);
  });

  it('moves weekly, every two weeks, and monthly on the first day of the month, clamped', () => {
    expect(nextRunAfter('2026-12-28', 'weekly', '2026-12-28')).toBe('2027-01-04');
    expect(nextRunAfter('2026-12-28', 'biweekly', '2026-12-28')).toBe('2027-01-11');
    expect(nextRunAfter('2027-01-31', 'monthly', '2027-01-31')).toBe('2027-02-28');
    // After a short month the plan is back on its own day.
    expect(nextRunAfter('2027-02-28', 'monthly', '2027-01-31')).toBe('2027-03-31');
    expect(nextRunAfter('2026-12-15', 'monthly', '2026-12-15')).toBe('2027-01-15');
    expect(daysBetween('2027-02-28', '2027-03-31')).toBe(31);
  });

  it('counts a plan’s buys in each limit window', () => {
    expect([1, 7, 30].map((days) => runsWithin('weekly', days as 1 | 7 | 30))).toEqual([1, 1, 5]);
    expect([1, 7, 30].map((days) => runsWithin('biweekly', days as 1 | 7 | 30))).toEqual([1, 1, 3]);
    expect([1, 7, 30].map((days) => runsWithin('monthly', days as 1 | 7 | 30))).toEqual([1, 1, 1]);
  });

  it('holds for business days, skipping the weekend', () => {
    const friday = new Date('2026-12-04T15:00:00Z');
    expect(addBusinessDays(friday, 0)).toEqual(friday);
    expect(addBusinessDays(friday, 1).toISOString()).toBe('2026-12-07T15:00:00.000Z');
    expect(addBusinessDays(friday, 3).toISOString()).toBe('2026-12-09T15:00:00.000Z');
  });
});
