import { describe, expect, it } from 'vitest';
import {
  checkExchangeQuote,
  MAX_PLAUSIBLE_PRICE_CENTS,
  MIN_PLAUSIBLE_PRICE_CENTS,
  parseExchangePrice,
  PriceSourceError,
} from './price-source';

describe('parseExchangePrice', () => {
  it.each([
    ['67321.55', 'up', 6_732_155n],
    ['67321.55', 'down', 6_732_155n],
    ['67321.5', 'up', 6_732_150n],
    ['67321', 'down', 6_732_100n],
    ['67321.50000', 'up', 6_732_150n], // Kraken's five decimals, all zero past the cent
    ['67321.55001', 'up', 6_732_156n], // an ask finer than a cent goes up...
    ['67321.55999', 'down', 6_732_155n], // ...a bid goes down
    ['00067321.55', 'up', 6_732_155n],
    ['100', 'up', MIN_PLAUSIBLE_PRICE_CENTS],
    ['10000000.00', 'down', MAX_PLAUSIBLE_PRICE_CENTS],
  ] as const)('reads %j rounded %s as %s cents', (text, rounding, cents) => {
    expect(parseExchangePrice('test', 'buy', text, rounding)).toBe(cents);
  });

  it.each([
    ['-67321.55', /not a plain decimal/],
    ['+67321.55', /not a plain decimal/],
    ['6.7e4', /not a plain decimal/],
    [' 67321.55', /not a plain decimal/],
    ['67,321.55', /not a plain decimal/],
    ['67321.', /not a plain decimal/],
    ['.55', /not a plain decimal/],
    ['', /not a plain decimal/],
    ['NaN', /not a plain decimal/],
    ['Infinity', /not a plain decimal/],
    ['1'.repeat(40), /not a plain decimal/],
    [67_321.55, /not a plain decimal \(67321\.55\)/], // a JSON number, not text
    [null, /not a plain decimal/],
    [{ amount: '1' }, /not a plain decimal \(an object\)/],
    ['0', /not positive/],
    ['0.00', /not positive/],
    ['99.99', /implausible/],
    ['10000000.01', /implausible/],
    ['123456789012', /implausible/],
  ])('refuses %j', (text, message) => {
    expect(() => parseExchangePrice('test', 'buy', text, 'down')).toThrow(PriceSourceError);
    expect(() => parseExchangePrice('test', 'buy', text, 'down')).toThrow(message);
  });

  it('refuses a sub-cent price that only rounding would make positive', () => {
    expect(() => parseExchangePrice('test', 'ask', '0.001', 'up')).toThrow(/implausible/);
    expect(() => parseExchangePrice('test', 'bid', '0.001', 'down')).toThrow(/not positive/);
  });
});

describe('checkExchangeQuote', () => {
  it('accepts a buy price at or above the sell price', () => {
    const quote = { exchangeBuyCents: 6_732_155n, exchangeSellCents: 6_731_010n };
    expect(checkExchangeQuote('test', quote)).toBe(quote);
    expect(() =>
      checkExchangeQuote('test', { exchangeBuyCents: 6_731_010n, exchangeSellCents: 6_731_010n }),
    ).not.toThrow();
  });

  it('refuses a buy price below the sell price, and implausible or non-integer prices', () => {
    expect(() =>
      checkExchangeQuote('test', { exchangeBuyCents: 6_731_009n, exchangeSellCents: 6_731_010n }),
    ).toThrow(new PriceSourceError('test: the buy price 6731009 is below the sell price 6731010 (cents)'));
    expect(() =>
      checkExchangeQuote('test', { exchangeBuyCents: 6_732_155n, exchangeSellCents: -1n }),
    ).toThrow(/sell price -1 cents is implausible/);
    expect(() => checkExchangeQuote('test', { exchangeBuyCents: 0n, exchangeSellCents: 0n })).toThrow(
      /implausible/,
    );
    expect(() =>
      checkExchangeQuote('test', {
        exchangeBuyCents: 67_321.55 as unknown as bigint,
        exchangeSellCents: 6_731_010n,
      }),
    ).toThrow(/buy price 67321.55 cents is implausible/);
  });
});
