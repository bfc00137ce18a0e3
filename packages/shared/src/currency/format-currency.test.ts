import { describe, expect, it } from 'vitest';
import { AMOUNT_UNAVAILABLE, formatCentsAsCurrency, formatCurrency } from './format-currency';

describe('formatCurrency', () => {
  it.each<[number | string, string]>([
    [1234.5, '$1,234.50'],
    [0, '$0.00'],
    [0.5, '$0.50'],
    [1_000_000, '$1,000,000.00'],
    [-1234.5, '-$1,234.50'],
    [19.99, '$19.99'],
    ['1234.5', '$1,234.50'],
    ['  1234.5  ', '$1,234.50'],
    ['.5', '$0.50'],
    ['7.', '$7.00'],
    ['-0.05', '-$0.05'],
  ])('shows %j as %j in dollars by default', (amount, text) => {
    expect(formatCurrency(amount)).toBe(text);
  });

  it('rounds half away from zero on the shortest decimal text, not on the binary float', () => {
    expect(formatCurrency(1.005)).toBe('$1.01');
    expect(formatCurrency(0.125)).toBe('$0.13');
    expect(formatCurrency(-0.125)).toBe('-$0.13');
    expect(formatCurrency(0.124)).toBe('$0.12');
    expect(formatCurrency(0.1 + 0.2)).toBe('$0.30');
  });

  it('shows no minus sign on an amount that rounds to zero', () => {
    expect(formatCurrency(-0)).toBe('$0.00');
    expect(formatCurrency(-0.001)).toBe('$0.00');
    expect(formatCurrency('-0.004')).toBe('$0.00');
    expect(formatCurrency(-0.005)).toBe('-$0.01');
  });

  it('reads numeric strings exactly, beyond what a double holds', () => {
    expect(formatCurrency('12345678901234567.89')).toBe('$12,345,678,901,234,567.89');
  });

  it('uses the stored currency', () => {
    expect(formatCurrency(1234.5, 'EUR')).toBe('€1,234.50');
    expect(formatCurrency(1234.5, 'GBP')).toBe('£1,234.50');
    expect(formatCurrency(1234.5, 'eur')).toBe('€1,234.50');
    expect(formatCurrency(1234.5, 'JPY')).toBe('¥1,235');
  });

  it.each(['', 'US', 'USDX', 'XYZ', 'QQQ', '$', '123', 'dollar', ' USD', 'US D'])(
    'falls back to dollars for the currency code %j',
    (currency) => {
      expect(formatCurrency(1234.5, currency)).toBe('$1,234.50');
    },
  );

  it('falls back to dollars when the stored currency is missing altogether', () => {
    expect(formatCurrency(1234.5, null as unknown as string)).toBe('$1,234.50');
    expect(formatCurrency(1234.5, undefined)).toBe('$1,234.50');
    expect(formatCentsAsCurrency(5n, null as unknown as string)).toBe('$0.05');
  });

  it.each<number | string>([
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    '',
    '  ',
    'abc',
    '1e3',
    '0x10',
    'Infinity',
    'NaN',
    '+1',
    '1,234.50',
    '$5',
    '.',
    '-',
  ])('shows %j as unavailable', (amount) => {
    expect(formatCurrency(amount)).toBe(AMOUNT_UNAVAILABLE);
    expect(formatCurrency(amount, 'EUR')).toBe(AMOUNT_UNAVAILABLE);
  });

  it('shows values of the wrong type as unavailable instead of throwing', () => {
    expect(formatCurrency(null as unknown as number)).toBe(AMOUNT_UNAVAILABLE);
    expect(formatCurrency(undefined as unknown as number)).toBe(AMOUNT_UNAVAILABLE);
    expect(formatCurrency({} as unknown as number)).toBe(AMOUNT_UNAVAILABLE);
  });

  it('marks unavailable amounts with a dash', () => {
    expect(AMOUNT_UNAVAILABLE).toBe('—');
  });
});

describe('formatCentsAsCurrency', () => {
  it.each([
    [123_456_789_012n, '$1,234,567,890.12'],
    [0n, '$0.00'],
    [1n, '$0.01'],
    [99n, '$0.99'],
    [100n, '$1.00'],
    [123_450n, '$1,234.50'],
    [100_000_000_000_000n, '$1,000,000,000,000.00'],
    [9_007_199_254_740_993n, '$90,071,992,547,409.93'],
    [123_456_789_012_345_678_901n, '$1,234,567,890,123,456,789.01'],
    [-5n, '-$0.05'],
    [-100n, '-$1.00'],
    [-123_456_789_012n, '-$1,234,567,890.12'],
  ])('shows %s cents as %j', (cents, text) => {
    expect(formatCentsAsCurrency(cents)).toBe(text);
  });

  it('uses the stored currency and keeps every cent, even where the currency shows no decimals', () => {
    expect(formatCentsAsCurrency(123_450n, 'EUR')).toBe('€1,234.50');
    expect(formatCentsAsCurrency(123_456n, 'JPY')).toBe('¥1,234.56');
    expect(formatCentsAsCurrency(-7n, 'GBP')).toBe('-£0.07');
  });

  it("spells dollars out exactly as the browser's own currency format would", () => {
    const intl = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    // Every length of whole units from 0 to 25 digits, both signs, and cents that end in 0.
    for (let digits = 1; digits <= 27; digits += 1) {
      for (const lead of ['1', '9', '5']) {
        const magnitude = BigInt(lead + '0'.repeat(digits - 1)) + BigInt(digits * 7);
        for (const cents of [magnitude, -magnitude, magnitude - (magnitude % 10n)]) {
          const absolute = cents < 0n ? -cents : cents;
          const decimal = `${cents < 0n ? '-' : ''}${absolute / 100n}.${String(absolute % 100n).padStart(2, '0')}`;
          const expected = intl.format(decimal as Intl.StringNumericLiteral);
          expect(formatCentsAsCurrency(cents)).toBe(expected);
          expect(formatCentsAsCurrency(cents, 'usd')).toBe(expected);
        }
      }
    }
  });

  it('falls back to dollars for an unknown currency code', () => {
    expect(formatCentsAsCurrency(123_450n, 'XYZ')).toBe('$1,234.50');
    expect(formatCentsAsCurrency(123_450n, '')).toBe('$1,234.50');
  });
});
