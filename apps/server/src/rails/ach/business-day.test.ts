import { describe, expect, it } from 'vitest';
import {
  bankDayAt,
  bankDayStart,
  bankTimeAt,
  federalReserveHolidays,
  isBankingDay,
  isCalendarDay,
  settlementDayOnOrAfter,
} from './business-day';

describe('the bank calendar of ACH files', () => {
  it('reads the day and time in New York, across daylight saving', () => {
    expect(bankDayAt(new Date('2026-11-30T04:59:00Z'))).toBe('2026-11-29');
    expect(bankDayAt(new Date('2026-11-30T05:00:00Z'))).toBe('2026-11-30');
    expect(bankDayAt(new Date('2026-07-01T03:59:00Z'))).toBe('2026-06-30');
    expect(bankTimeAt(new Date('2026-07-01T04:00:00Z'))).toBe('00:00');
    expect(bankDayStart('2026-11-30').toISOString()).toBe('2026-11-30T05:00:00.000Z');
    expect(bankDayStart('2026-07-01').toISOString()).toBe('2026-07-01T04:00:00.000Z');
    // The days daylight saving starts and ends still begin at midnight.
    expect(bankDayStart('2026-03-08').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(bankDayStart('2026-11-01').toISOString()).toBe('2026-11-01T04:00:00.000Z');
  });

  it('knows the Federal Reserve holidays of 2026 (the Reserve Banks’ published list)', () => {
    expect([...federalReserveHolidays(2026)].sort()).toEqual([
      '2026-01-01',
      '2026-01-19',
      '2026-02-16',
      '2026-05-25',
      '2026-06-19',
      '2026-07-04',
      '2026-09-07',
      '2026-10-12',
      '2026-11-11',
      '2026-11-26',
      '2026-12-25',
    ]);
    // 2023: New Year's Day on a Sunday is kept on Monday 2 January.
    expect(federalReserveHolidays(2023).has('2023-01-02')).toBe(true);
  });

  it('settles on the next banking day after a weekend or a holiday', () => {
    expect(settlementDayOnOrAfter('2026-11-27')).toBe('2026-11-27');
    expect(settlementDayOnOrAfter('2026-11-28')).toBe('2026-11-30');
    expect(settlementDayOnOrAfter('2026-11-26')).toBe('2026-11-27');
    expect(settlementDayOnOrAfter('2026-12-24')).toBe('2026-12-24');
    expect(settlementDayOnOrAfter('2026-12-25')).toBe('2026-12-28');
    expect(isBankingDay('2026-07-03')).toBe(true);
  });

  it('takes only real calendar days written YYYY-MM-DD', () => {
    expect(isCalendarDay('2026-02-28')).toBe(true);
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2026-13-01')).toBe(false);
    expect(isCalendarDay('2026-1-01')).toBe(false);
    expect(isCalendarDay('yesterday')).toBe(false);
  });
});
