import { describe, expect, it } from 'vitest';
import {
  basisPointsFromPercent,
  btcNumberToSats,
  CENTS_PER_USD,
  centsToUsdNumber,
  formatBtc,
  formatUsd,
  MAX_CENTS,
  MAX_SATS,
  MoneyParseError,
  mulDivCeil,
  mulDivFloor,
  parseBtc,
  parseTypedBtc,
  parseTypedUsd,
  parseUsd,
  percentFromBasisPoints,
  readTypedAmount,
  UNCLEAR_AMOUNT_MESSAGE,
  SATS_PER_BTC,
  satsToBtcNumber,
  usdNumberToCents,
  type MoneyParseFailure,
} from './money';

function failureOf(run: () => unknown): { reason: MoneyParseFailure; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof MoneyParseError) return { reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error('expected a MoneyParseError, but nothing was thrown');
}

// A small deterministic generator, so the round-trip samples are the same on every run.
function* pseudoRandomBigints(count: number, max: bigint, seed = 0x2545f491): Generator<bigint> {
  let state = seed;
  for (let i = 0; i < count; i++) {
    let value = 0n;
    for (let word = 0; word < 3; word++) {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      value = (value << 32n) | BigInt(state);
    }
    yield value % (max + 1n);
  }
}

describe('constants', () => {
  it('has the unit sizes and bounds', () => {
    expect(SATS_PER_BTC).toBe(100_000_000n);
    expect(CENTS_PER_USD).toBe(100n);
    expect(MAX_SATS).toBe(2_100_000_000_000_000n);
    expect(MAX_CENTS).toBe(100_000_000_000_000n);
  });
});

describe('parseBtc', () => {
  it.each([
    ['1', 100_000_000n],
    ['0.5', 50_000_000n],
    ['.5', 50_000_000n],
    ['1.', 100_000_000n],
    ['0012.30', 1_230_000_000n],
    ['0', 0n],
    ['0.0', 0n],
    ['000', 0n],
    ['0.00000001', 1n],
    ['.00000001', 1n],
    ['0.12345678', 12_345_678n],
    ['20999999.99999999', 2_099_999_999_999_999n],
    ['21000000', 2_100_000_000_000_000n],
    ['21000000.00000000', 2_100_000_000_000_000n],
    ['00000000000000000000000000000021000000', 2_100_000_000_000_000n],
    ['  0.015  ', 1_500_000n],
    ['\t1\n', 100_000_000n],
  ])('reads %j as %s sats', (text, sats) => {
    expect(parseBtc(text)).toBe(sats);
  });

  it.each<[string, MoneyParseFailure]>([
    ['', 'empty'],
    ['   ', 'empty'],
    ['\n\t', 'empty'],
    ['.', 'not_a_number'],
    ['-', 'not_a_number'],
    ['+1', 'not_a_number'],
    ['1e3', 'not_a_number'],
    ['1E3', 'not_a_number'],
    ['1e-8', 'not_a_number'],
    ['0x10', 'not_a_number'],
    ['0b1', 'not_a_number'],
    ['NaN', 'not_a_number'],
    ['Infinity', 'not_a_number'],
    ['-Infinity', 'not_a_number'],
    ['1,000', 'not_a_number'],
    ['1,5', 'not_a_number'],
    ['1_000', 'not_a_number'],
    ['1 000', 'not_a_number'],
    ['1..5', 'not_a_number'],
    ['1.5.', 'not_a_number'],
    ['..5', 'not_a_number'],
    ['abc', 'not_a_number'],
    ['-abc', 'not_a_number'],
    ['--1', 'not_a_number'],
    ['1btc', 'not_a_number'],
    ['₿1', 'not_a_number'],
    ['١', 'not_a_number'],
    ['１', 'not_a_number'],
    ['-1', 'negative'],
    ['-0', 'negative'],
    ['-0.5', 'negative'],
    ['-.5', 'negative'],
    ['  -1  ', 'negative'],
    ['0.123456789', 'too_many_decimals'],
    ['1.000000000', 'too_many_decimals'],
    ['21000000.00000001', 'too_large'],
    ['21000001', 'too_large'],
    ['99999999999', 'too_large'],
  ])('refuses %j (%s)', (text, reason) => {
    expect(failureOf(() => parseBtc(text)).reason).toBe(reason);
  });

  it('refuses a very long digit string as too large, however many leading zeros pad a small one', () => {
    expect(failureOf(() => parseBtc('1'.repeat(100_000))).reason).toBe('too_large');
    expect(parseBtc(`${'0'.repeat(100_000)}1.5`)).toBe(150_000_000n);
  });

  it('explains each refusal in words a person can act on', () => {
    expect(failureOf(() => parseBtc('')).message).toBe('Enter an amount.');
    expect(failureOf(() => parseBtc('1e3')).message).toBe('Enter an amount as a plain number, like 0.015.');
    expect(failureOf(() => parseBtc('-1')).message).toBe('Enter the amount without a minus sign.');
    expect(failureOf(() => parseBtc('0.123456789')).message).toBe(
      'Use at most 8 decimal places for bitcoin.',
    );
    expect(failureOf(() => parseBtc('21000001')).message).toBe('Enter at most 21,000,000 BTC.');
  });

  it('throws a MoneyParseError that is also an Error', () => {
    expect(() => parseBtc('x')).toThrow(MoneyParseError);
    expect(() => parseBtc('x')).toThrow(Error);
    try {
      parseBtc('x');
    } catch (error) {
      expect((error as Error).name).toBe('MoneyParseError');
    }
  });

  it('refuses values that are not strings at run time', () => {
    expect(failureOf(() => parseBtc(1 as unknown as string)).reason).toBe('not_a_number');
    expect(failureOf(() => parseBtc(null as unknown as string)).reason).toBe('not_a_number');
    expect(failureOf(() => parseBtc(undefined as unknown as string)).reason).toBe('not_a_number');
  });
});

describe('parseUsd', () => {
  it.each([
    ['1', 100n],
    ['0.5', 50n],
    ['.5', 50n],
    ['1.', 100n],
    ['0012.30', 1230n],
    ['25.50', 2550n],
    ['19.99', 1999n],
    ['0.01', 1n],
    ['.01', 1n],
    ['0', 0n],
    ['1000000000000', 100_000_000_000_000n],
    ['1000000000000.00', 100_000_000_000_000n],
    ['999999999999.99', 99_999_999_999_999n],
    [' 42 ', 4200n],
  ])('reads %j as %s cents', (text, cents) => {
    expect(parseUsd(text)).toBe(cents);
  });

  it.each<[string, MoneyParseFailure]>([
    ['', 'empty'],
    ['  ', 'empty'],
    ['.', 'not_a_number'],
    ['+1', 'not_a_number'],
    ['1e3', 'not_a_number'],
    ['0x10', 'not_a_number'],
    ['NaN', 'not_a_number'],
    ['Infinity', 'not_a_number'],
    ['$5', 'not_a_number'],
    ['1,234.50', 'not_a_number'],
    ['-5', 'negative'],
    ['-0.01', 'negative'],
    ['1.234', 'too_many_decimals'],
    ['0.001', 'too_many_decimals'],
    ['1.000', 'too_many_decimals'],
    ['1000000000000.01', 'too_large'],
    ['1000000000001', 'too_large'],
    ['10000000000000', 'too_large'],
  ])('refuses %j (%s)', (text, reason) => {
    expect(failureOf(() => parseUsd(text)).reason).toBe(reason);
  });

  it('explains each refusal in words a person can act on', () => {
    expect(failureOf(() => parseUsd('1.234')).message).toBe('Use at most 2 decimal places for US dollars.');
    expect(failureOf(() => parseUsd('abc')).message).toBe('Enter an amount as a plain number, like 25.50.');
    expect(failureOf(() => parseUsd('  ')).message).toBe('Enter an amount.');
    expect(failureOf(() => parseUsd('-1')).message).toBe('Enter the amount without a minus sign.');
    expect(failureOf(() => parseUsd('1000000000001')).message).toBe(
      'Enter at most 1,000,000,000,000 US dollars.',
    );
  });
});

describe('readTypedAmount and parseTypedUsd: dollars as customers type them', () => {
  it.each([
    ['25,000', 2_500_000n],
    ['1,000', 100_000n],
    ['$1,000.50', 100_050n],
    ['$25', 2500n],
    ['$ 25', 2500n],
    [' $1,234,567.89 ', 123_456_789n],
    ['1 000', 100_000n],
    ['1\u00a0000.50', 100_050n],
    ['1\u202f000', 100_000n],
    ['12 345 678', 1_234_567_800n],
    ['999,999,999,999.99', 99_999_999_999_999n],
    ['1,000.', 100_000n],
    ['25.5', 2550n],
    ['0.12', 12n],
    ['1000', 100_000n],
    ['.5', 50n],
  ])('reads %j as %s cents', (text, cents) => {
    expect(parseTypedUsd(text)).toBe(cents);
  });

  it.each([
    '1,00',
    '0,5',
    '1,5',
    '1,0000',
    '12,34,567',
    '1000,000',
    '1.000,50',
    '1,000,50',
    '1 000,50',
    '1,000 000',
    '1.000.000',
    '1..5',
    ',500',
    '0,500',
    '1,000.5,0',
  ])('refuses %j as unclear, with a message saying how to write it', (text) => {
    expect(failureOf(() => parseTypedUsd(text))).toEqual({
      reason: 'unclear',
      message: UNCLEAR_AMOUNT_MESSAGE,
    });
  });

  it.each([
    ['1.000', 'Dollars have 2 decimal places: write 1,000 or 1.00.'],
    ['25.000', 'Dollars have 2 decimal places: write 25,000 or 25.00.'],
    ['$999.509', 'Dollars have 2 decimal places: write 999,509 or 999.50.'],
  ])('refuses %j: a point before three digits reads as a thousands separator too', (text, message) => {
    expect(failureOf(() => parseTypedUsd(text))).toEqual({ reason: 'unclear', message });
  });

  it('keeps the plain refusals of parseUsd for what is not a grouping matter', () => {
    expect(failureOf(() => parseTypedUsd('0.001')).reason).toBe('too_many_decimals');
    expect(failureOf(() => parseTypedUsd('1,000.123')).reason).toBe('too_many_decimals');
    expect(failureOf(() => parseTypedUsd('-1,000')).reason).toBe('negative');
    expect(failureOf(() => parseTypedUsd('-25')).reason).toBe('negative');
    expect(failureOf(() => parseTypedUsd('$-25')).reason).toBe('negative');
    expect(failureOf(() => parseTypedUsd('25$')).reason).toBe('not_a_number');
    expect(failureOf(() => parseTypedUsd('$$25')).reason).toBe('not_a_number');
    expect(failureOf(() => parseTypedUsd('1e3')).reason).toBe('not_a_number');
    expect(failureOf(() => parseTypedUsd('$')).reason).toBe('empty');
    expect(failureOf(() => parseTypedUsd('  ')).reason).toBe('empty');
    expect(failureOf(() => parseTypedUsd('99999999999999999999')).reason).toBe('too_large');
    expect(failureOf(() => parseTypedUsd('1,000,000,000,000.01')).reason).toBe('too_large');
  });

  it('tells a grouping still being typed from one that cannot become clear', () => {
    for (const text of ['25,', '25,0', '25,00', '1,000,', '1,000,0', '1 00']) {
      expect(readTypedAmount(text, 'usd'), text).toEqual({
        kind: 'unclear',
        message: UNCLEAR_AMOUNT_MESSAGE,
        incomplete: true,
      });
    }
    for (const text of ['1,00.5', '0,5', '1.000,5', '1,0000']) {
      expect(readTypedAmount(text, 'usd'), text).toMatchObject({ kind: 'unclear', incomplete: false });
    }
  });

  it('gives the plain text parseUsd reads, or says the field is empty', () => {
    expect(readTypedAmount('$1,000.50', 'usd')).toEqual({ kind: 'amount', text: '1000.50' });
    expect(readTypedAmount(' $ ', 'usd')).toEqual({ kind: 'empty' });
    expect(readTypedAmount('', 'btc')).toEqual({ kind: 'empty' });
  });
});

describe('parseTypedBtc: bitcoin as customers type it', () => {
  it.each([
    ['0.015', 1_500_000n],
    ['1.000', 100_000_000n],
    ['1,000', 100_000_000_000n],
    ['1,000.5', 100_050_000_000n],
    ['21,000,000', MAX_SATS],
  ])('reads %j as %s sats', (text, sats) => {
    expect(parseTypedBtc(text)).toBe(sats);
  });

  it.each<[string, MoneyParseFailure]>([
    ['0,015', 'unclear'],
    ['1,5', 'unclear'],
    ['1.000,5', 'unclear'],
    ['$1', 'not_a_number'],
    ['0.123456789', 'too_many_decimals'],
    ['21,000,001', 'too_large'],
    ['99999999999999999999', 'too_large'],
  ])('refuses %j (%s)', (text, reason) => {
    expect(failureOf(() => parseTypedBtc(text)).reason).toBe(reason);
  });
});

describe('formatBtc', () => {
  it.each([
    [0n, '0.00000000'],
    [1n, '0.00000001'],
    [10_000n, '0.00010000'],
    [100_000_000n, '1.00000000'],
    [123_456_789n, '1.23456789'],
    [MAX_SATS, '21000000.00000000'],
    [-1n, '-0.00000001'],
    [-150_000_000n, '-1.50000000'],
  ])('shows %s sats as %j', (sats, text) => {
    expect(formatBtc(sats)).toBe(text);
  });

  it('cuts extra digits off instead of rounding up', () => {
    expect(formatBtc(199n, 6)).toBe('0.000001');
    expect(formatBtc(99n, 6)).toBe('0.000000');
    expect(formatBtc(123_456_789n, 6)).toBe('1.234567');
    expect(formatBtc(199_999_999n, 2)).toBe('1.99');
    expect(formatBtc(199_999_999n, 0)).toBe('1');
    expect(formatBtc(99_999_999n, 0)).toBe('0');
    expect(formatBtc(123_456_789n, 1)).toBe('1.2');
    expect(formatBtc(123_456_789n, 8)).toBe('1.23456789');
  });

  it('cuts negative amounts toward zero and drops the sign of a shown zero', () => {
    expect(formatBtc(-199n, 6)).toBe('-0.000001');
    expect(formatBtc(-99n, 6)).toBe('0.000000');
    expect(formatBtc(-199_999_999n, 0)).toBe('-1');
  });

  it.each([-1, 9, 2.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s decimals', (decimals) => {
    expect(() => formatBtc(1n, decimals)).toThrow(RangeError);
  });

  it('reads back as the same amount', () => {
    const samples = [...pseudoRandomBigints(1000, MAX_SATS)];
    expect(samples.filter((sats) => parseBtc(formatBtc(sats)) !== sats)).toEqual([]);
  });
});

describe('formatUsd', () => {
  it.each([
    [0n, '0.00'],
    [1n, '0.01'],
    [10n, '0.10'],
    [123_450n, '1234.50'],
    [100n, '1.00'],
    [MAX_CENTS, '1000000000000.00'],
    [123_456_789_012_345_678_901n, '1234567890123456789.01'],
    [-1n, '-0.01'],
    [-5n, '-0.05'],
    [-123_450n, '-1234.50'],
  ])('shows %s cents as %j', (cents, text) => {
    expect(formatUsd(cents)).toBe(text);
  });

  it('reads back as the same amount', () => {
    const samples = [...pseudoRandomBigints(1000, MAX_CENTS)];
    expect(samples.filter((cents) => parseUsd(formatUsd(cents)) !== cents)).toEqual([]);
  });
});

describe('btcNumberToSats', () => {
  it.each([
    [1, 100_000_000n],
    [0.5, 50_000_000n],
    [0.0001, 10_000n],
    [0.00000001, 1n],
    [1e-7, 10n],
    [5e-7, 50n],
    [1.23e-6, 123n],
    [0.000001, 100n],
    [0, 0n],
    [-0, 0n],
    [20_999_999.99999999, 2_099_999_999_999_999n],
    [21_000_000, MAX_SATS],
  ])('reads %s as %s sats', (n, sats) => {
    expect(btcNumberToSats(n)).toBe(sats);
  });

  it.each<[number, MoneyParseFailure]>([
    [0.1 + 0.2, 'too_many_decimals'],
    [1e-9, 'too_many_decimals'],
    [1.5e-9, 'too_many_decimals'],
    [Number.MIN_VALUE, 'too_many_decimals'],
    [0.123456789, 'too_many_decimals'],
    [-1, 'negative'],
    [-1e-7, 'negative'],
    [21_000_000.00000001, 'too_large'],
    [1e21, 'too_large'],
    [Number.MAX_VALUE, 'too_large'],
    [Number.NaN, 'not_a_number'],
    [Number.POSITIVE_INFINITY, 'not_a_number'],
    [Number.NEGATIVE_INFINITY, 'not_a_number'],
  ])('refuses %s (%s)', (n, reason) => {
    expect(failureOf(() => btcNumberToSats(n)).reason).toBe(reason);
  });

  it('refuses values that are not numbers at run time', () => {
    expect(failureOf(() => btcNumberToSats('1' as unknown as number)).reason).toBe('not_a_number');
    expect(failureOf(() => btcNumberToSats(1n as unknown as number)).reason).toBe('not_a_number');
  });
});

describe('usdNumberToCents', () => {
  it.each([
    [19.99, 1999n],
    [0.3, 30n],
    [0.1, 10n],
    [1234.5, 123_450n],
    [0.01, 1n],
    [1e12, MAX_CENTS],
    [999_999_999_999.99, 99_999_999_999_999n],
  ])('reads %s as %s cents', (n, cents) => {
    expect(usdNumberToCents(n)).toBe(cents);
  });

  it('refuses float artefacts instead of rounding them away', () => {
    expect(0.1 + 0.2).toBe(0.30000000000000004);
    expect(failureOf(() => usdNumberToCents(0.30000000000000004)).reason).toBe('too_many_decimals');
    expect(failureOf(() => usdNumberToCents(1.1 * 3)).reason).toBe('too_many_decimals');
    expect(failureOf(() => usdNumberToCents(19.999)).reason).toBe('too_many_decimals');
    expect(failureOf(() => usdNumberToCents(1e-7)).reason).toBe('too_many_decimals');
  });

  it.each<[number, MoneyParseFailure]>([
    [-0.01, 'negative'],
    [1e12 + 1, 'too_large'],
    [1e15, 'too_large'],
    [Number.NaN, 'not_a_number'],
    [Number.POSITIVE_INFINITY, 'not_a_number'],
  ])('refuses %s (%s)', (n, reason) => {
    expect(failureOf(() => usdNumberToCents(n)).reason).toBe(reason);
  });
});

describe('satsToBtcNumber and centsToUsdNumber', () => {
  it('give the JSON numbers', () => {
    expect(satsToBtcNumber(10_000n)).toBe(0.0001);
    expect(satsToBtcNumber(1n)).toBe(1e-8);
    expect(satsToBtcNumber(0n)).toBe(0);
    expect(satsToBtcNumber(-50_000_000n)).toBe(-0.5);
    expect(satsToBtcNumber(MAX_SATS)).toBe(21_000_000);
    expect(JSON.stringify({ amount: satsToBtcNumber(123_456_789n) })).toBe('{"amount":1.23456789}');
    expect(centsToUsdNumber(1999n)).toBe(19.99);
    expect(centsToUsdNumber(30n)).toBe(0.3);
    expect(centsToUsdNumber(-5n)).toBe(-0.05);
    expect(centsToUsdNumber(MAX_CENTS)).toBe(1e12);
    expect(JSON.stringify({ value: centsToUsdNumber(123_450n) })).toBe('{"value":1234.5}');
  });

  it('survive the trip through a JSON number and back, to the satoshi and the cent', () => {
    const throughJson = (n: number): number => JSON.parse(JSON.stringify(n)) as number;
    const sats = [...pseudoRandomBigints(2000, MAX_SATS), MAX_SATS, MAX_SATS - 1n, 1n, 0n];
    expect(sats.filter((s) => btcNumberToSats(throughJson(satsToBtcNumber(s))) !== s)).toEqual([]);
    const cents = [...pseudoRandomBigints(2000, MAX_CENTS), MAX_CENTS, MAX_CENTS - 1n, 1n, 0n];
    expect(cents.filter((c) => usdNumberToCents(throughJson(centsToUsdNumber(c))) !== c)).toEqual([]);
  });

  it('refuse amounts a double cannot carry exactly', () => {
    expect(() => satsToBtcNumber(MAX_SATS + 1n)).toThrow(RangeError);
    expect(() => satsToBtcNumber(-MAX_SATS - 1n)).toThrow(RangeError);
    expect(() => centsToUsdNumber(MAX_CENTS + 1n)).toThrow(RangeError);
    expect(() => centsToUsdNumber(-MAX_CENTS - 1n)).toThrow(RangeError);
  });
});

describe('basisPointsFromPercent', () => {
  it.each([
    [1.5, 150],
    [0, 0],
    [1, 100],
    [0.01, 1],
    [0.07, 7],
    [0.29, 29],
    [2.55, 255],
    [99.99, 9999],
    [100, 10_000],
  ])('turns %s%% into %s basis points', (percent, bps) => {
    expect(basisPointsFromPercent(percent)).toBe(bps);
  });

  it.each<[number, MoneyParseFailure]>([
    [1.005, 'too_many_decimals'],
    [0.001, 'too_many_decimals'],
    [0.1 + 0.2, 'too_many_decimals'],
    [1e-7, 'too_many_decimals'],
    [-1, 'negative'],
    [-0.5, 'negative'],
    [100.01, 'too_large'],
    [1e21, 'too_large'],
    [Number.NaN, 'not_a_number'],
    [Number.POSITIVE_INFINITY, 'not_a_number'],
  ])('refuses %s (%s)', (percent, reason) => {
    expect(failureOf(() => basisPointsFromPercent(percent)).reason).toBe(reason);
  });

  it('speaks of percentages in its messages', () => {
    expect(failureOf(() => basisPointsFromPercent(1.005)).message).toBe(
      'Use at most 2 decimal places for a percentage.',
    );
    expect(failureOf(() => basisPointsFromPercent(101)).message).toBe('Enter a percentage of at most 100.');
  });
});

describe('percentFromBasisPoints', () => {
  it.each([
    [150, 1.5],
    [0, 0],
    [1, 0.01],
    [7, 0.07],
    [29, 0.29],
    [10_000, 100],
  ])('turns %s basis points into %s%%', (bps, percent) => {
    expect(percentFromBasisPoints(bps)).toBe(percent);
  });

  it('is the exact inverse of basisPointsFromPercent for every percentage from 0 to 100', () => {
    const mismatches: number[] = [];
    for (let bps = 0; bps <= 10_000; bps++) {
      const percent = percentFromBasisPoints(bps);
      if (percent !== Number(formatUsd(BigInt(bps))) || basisPointsFromPercent(percent) !== bps)
        mismatches.push(bps);
    }
    expect(mismatches).toEqual([]);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('refuses %s', (bps) => {
    expect(() => percentFromBasisPoints(bps)).toThrow(RangeError);
  });
});

describe('mulDivFloor and mulDivCeil', () => {
  it('round down and up', () => {
    expect(mulDivFloor(7n, 3n, 2n)).toBe(10n);
    expect(mulDivCeil(7n, 3n, 2n)).toBe(11n);
    expect(mulDivFloor(1n, 1n, 3n)).toBe(0n);
    expect(mulDivCeil(1n, 1n, 3n)).toBe(1n);
  });

  it('do not round an exact quotient', () => {
    expect(mulDivFloor(6n, 4n, 3n)).toBe(8n);
    expect(mulDivCeil(6n, 4n, 3n)).toBe(8n);
    expect(mulDivFloor(0n, 5n, 7n)).toBe(0n);
    expect(mulDivCeil(0n, 5n, 7n)).toBe(0n);
    expect(mulDivCeil(5n, 0n, 7n)).toBe(0n);
  });

  it('keep every digit of a product far beyond 2^53', () => {
    // 1 trillion dollars bought at $123,456.78 per bitcoin.
    expect(mulDivFloor(MAX_CENTS, SATS_PER_BTC, 12_345_678n)).toBe(810_000_066_420_005n);
    expect(mulDivCeil(MAX_CENTS, SATS_PER_BTC, 12_345_678n)).toBe(810_000_066_420_006n);
    expect(mulDivFloor(MAX_SATS, MAX_CENTS, 1n)).toBe(210_000_000_000_000_000_000_000_000_000n);
  });

  it('work out a quote: a 1.5% fee on $100.01 and the satoshis bought with the rest', () => {
    const fee = mulDivCeil(10_001n, 150n, 10_000n);
    expect(fee).toBe(151n);
    expect(mulDivFloor(10_001n - fee, SATS_PER_BTC, 6_543_210n)).toBe(150_537n);
  });

  it.each([
    [-1n, 1n, 1n],
    [1n, -1n, 1n],
    [1n, 1n, 0n],
    [1n, 1n, -1n],
  ])('refuse mulDiv(%s, %s, %s)', (a, b, c) => {
    expect(() => mulDivFloor(a, b, c)).toThrow(RangeError);
    expect(() => mulDivCeil(a, b, c)).toThrow(RangeError);
  });
});
