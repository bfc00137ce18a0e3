import { describe, expect, it } from 'vitest';
import { formatBtc, formatUsd } from '@offzero/shared/money/money';
import {
  quoteBuyFromBtc,
  quoteBuyFromUsd,
  quoteSellFromBtc,
  quoteSellFromUsd,
} from '@offzero/shared/quotes/quote';
import { UNCLEAR_AMOUNT_MESSAGE } from '@offzero/shared/money/money';
import {
  AMOUNT_LETTERS_MESSAGE,
  AMOUNT_POINTS_MESSAGE,
  buyQuoteFor,
  entryProblem,
  fieldTexts,
  MAX_DECIMALS,
  readAmountInput,
  sellBlockedReason,
  sellQuoteFor,
} from './quote-fields';

const buyTerms = {
  sellPriceCents: 9_712_345n, // $97,123.45
  networkFeeSats: 1_410n,
  feeBps: 150,
  minOrderCents: 2_000n,
};
const sellTerms = { buyPriceCents: 9_650_000n, feeBps: 150, minOrderCents: 2_000n, bankChargesCents: 0n };

describe('amount fields', () => {
  it('refuse letters, signs and several points, keeping what the field had', () => {
    for (const text of ['abc', '1a', '-1', '+1', '1e5', '0x10', 'NaN', '١', '25$']) {
      expect(readAmountInput(text, 8, 'btc'), text).toEqual({
        kind: 'refused',
        message: AMOUNT_LETTERS_MESSAGE,
      });
    }
    expect(readAmountInput('$1', 8, 'btc')).toEqual({ kind: 'refused', message: AMOUNT_LETTERS_MESSAGE });
    expect(readAmountInput('1.2.3', 2, 'usd')).toEqual({ kind: 'refused', message: AMOUNT_POINTS_MESSAGE });
  });

  it('hold the amount as the customer writes it: grouping commas and spaces, a dollar sign', () => {
    for (const text of ['', '.', '12.', '.5', '25,000', '$1,000.50', '$ 25', '1 000', '25,', '1,00']) {
      expect(readAmountInput(text, 2, 'usd'), text).toEqual({ kind: 'accepted', text, note: null });
    }
  });

  it('cut extra decimals off, never rounding up, and say so', () => {
    expect(readAmountInput(' 1,000.129 ', MAX_DECIMALS.usd, 'usd')).toEqual({
      kind: 'accepted',
      text: '1,000.12',
      note: 'Rounded down to 2 decimals.',
    });
    expect(readAmountInput('0.1234567', MAX_DECIMALS.buyBtc, 'btc')).toMatchObject({ text: '0.123456' });
    expect(readAmountInput('0.12345678', MAX_DECIMALS.sellBtc, 'btc')).toMatchObject({ text: '0.123456' });
  });

  it('say what keeps the typed amount from a quote', () => {
    expect(entryProblem({ source: 'usd', text: ' ' })).toEqual({ kind: 'empty' });
    expect(entryProblem({ source: 'usd', text: '1,00' })).toEqual({
      kind: 'unreadable',
      message: UNCLEAR_AMOUNT_MESSAGE,
    });
    expect(entryProblem({ source: 'usd', text: '99999999999999999999' })).toEqual({ kind: 'too_large' });
    expect(entryProblem({ source: 'btc', text: '21,000,001' })).toEqual({ kind: 'too_large' });
    expect(entryProblem({ source: 'usd', text: '$25,000' })).toBeNull();
  });
});

describe('quotes from amounts written with grouping', () => {
  it('quote $25,000 for "25,000" and $1,000.50 for "$1,000.50", never a thousandth of it', () => {
    expect(buyQuoteFor({ source: 'usd', text: '25,000' }, buyTerms)?.valueCents).toBe(2_500_000n);
    expect(buyQuoteFor({ source: 'usd', text: '$1,000.50' }, buyTerms)?.valueCents).toBe(100_050n);
    expect(sellQuoteFor({ source: 'usd', text: '1 000' }, sellTerms)).toEqual(
      sellQuoteFor({ source: 'usd', text: '1000' }, sellTerms),
    );
    expect(buyQuoteFor({ source: 'usd', text: '1,00' }, buyTerms)).toBeNull();
    expect(buyQuoteFor({ source: 'usd', text: '25.000' }, buyTerms)).toBeNull();
  });
});

describe('buy quote from the fields', () => {
  it('from dollars equals the shared maths', () => {
    const quote = buyQuoteFor({ source: 'usd', text: '250' }, buyTerms);
    expect(quote).toEqual(
      quoteBuyFromUsd({
        valueCents: 25_000n,
        sellPriceCents: buyTerms.sellPriceCents,
        feeBps: 150,
        networkFeeSats: 1_410n,
      }),
    );
    // $250 − ⌈$3.75⌉ platform fee − ⌈1410 sat at $97,123.45 = $1.369…⌉ network fee.
    expect(quote?.platformFeeCents).toBe(375n);
    expect(quote?.networkFeeCents).toBe(137n);
    expect(fieldTexts({ source: 'usd', text: '250' }, quote, 'buy')).toEqual({
      usd: '250',
      btc: formatBtc(quote!.amountSats, 6),
    });
  });

  it('from bitcoin equals the shared maths', () => {
    const quote = buyQuoteFor({ source: 'btc', text: '0.0025' }, buyTerms);
    expect(quote).toEqual(
      quoteBuyFromBtc({
        amountSats: 250_000n,
        sellPriceCents: buyTerms.sellPriceCents,
        feeBps: 150,
        networkFeeSats: 1_410n,
      }),
    );
    expect(fieldTexts({ source: 'btc', text: '0.0025' }, quote, 'buy').usd).toBe(
      formatUsd(quote!.valueCents),
    );
  });

  it('leaves the other field empty below the minimum order, or with nothing to quote', () => {
    expect(buyQuoteFor({ source: 'usd', text: '19.99' }, buyTerms)).toBeNull();
    expect(buyQuoteFor({ source: 'btc', text: '0.0001' }, buyTerms)).toBeNull();
    expect(buyQuoteFor({ source: 'usd', text: '' }, buyTerms)).toBeNull();
    expect(buyQuoteFor({ source: 'usd', text: '.' }, buyTerms)).toBeNull();
    expect(buyQuoteFor({ source: 'usd', text: '250' }, null)).toBeNull();
    expect(fieldTexts({ source: 'usd', text: '19.99' }, null, 'buy')).toEqual({ usd: '19.99', btc: '' });
  });
});

describe('sell quote from the fields', () => {
  it('from bitcoin and from dollars equals the shared maths, bank charges included', () => {
    const withCharges = { ...sellTerms, bankChargesCents: 500n };
    expect(sellQuoteFor({ source: 'btc', text: '0.01' }, withCharges)).toEqual(
      quoteSellFromBtc({
        amountSats: 1_000_000n,
        buyPriceCents: 9_650_000n,
        feeBps: 150,
        bankChargesCents: 500n,
      }),
    );
    const exact = quoteSellFromUsd({
      valueCents: 50_000n,
      buyPriceCents: 9_650_000n,
      feeBps: 150,
      bankChargesCents: 500n,
    });
    const fromUsd = sellQuoteFor({ source: 'usd', text: '500' }, withCharges);
    // The smallest whole 100 satoshis at or above the exact amount, priced by the shared maths.
    expect(fromUsd!.amountSats % 100n).toBe(0n);
    expect(fromUsd!.amountSats - exact!.amountSats).toBeGreaterThanOrEqual(0n);
    expect(fromUsd!.amountSats - exact!.amountSats).toBeLessThan(100n);
    expect(fromUsd).toEqual(
      quoteSellFromBtc({
        amountSats: fromUsd!.amountSats,
        buyPriceCents: 9_650_000n,
        feeBps: 150,
        bankChargesCents: 500n,
      }),
    );
  });

  it('asked in dollars, sells bitcoin to 6 decimals and still pays at least the dollars asked for', () => {
    for (const text of ['20', '500', '1234.56', '99999.99']) {
      const quote = sellQuoteFor({ source: 'usd', text }, sellTerms);
      const btc = fieldTexts({ source: 'usd', text }, quote, 'sell').btc;
      expect(btc, text).toMatch(/^\d+\.\d{6}$/);
      expect(btc, text).toBe(formatBtc(quote!.amountSats, 6));
      expect(quote!.valueCents, text).toBeGreaterThanOrEqual(BigInt(Math.round(Number(text) * 100)));
    }
  });

  it('applies the minimum to the dollars received', () => {
    expect(sellQuoteFor({ source: 'btc', text: '0.0002' }, sellTerms)).toBeNull(); // ≈ $19
    expect(sellQuoteFor({ source: 'usd', text: '10' }, sellTerms)).toBeNull();
  });
});

describe('why a sell by a method cannot go ahead', () => {
  // A $25 wire at $96,500 and 1.5 %: $45.00 must be left after the fee, so 4,569 cents gross, 47,348 sats.
  const wire = { ...sellTerms, bankChargesCents: 2_500n };
  const deadEnd =
    'For a wire payout, sell at least 0.000474 BTC: the bank charges and fee would leave nothing to receive.';

  it('names the smallest amount that works when the charges and fee would leave nothing', () => {
    expect(sellBlockedReason({ source: 'btc', text: '0.000214' }, wire, 'wire')).toBe(deadEnd);
    expect(sellBlockedReason({ source: 'btc', text: '0.00026' }, wire, 'wire')).toBe(deadEnd);
  });

  it('names the minimum order when something but too little is left', () => {
    expect(sellBlockedReason({ source: 'btc', text: '0.00045' }, wire, 'wire')).toBe(
      'Minimum order is $20.00',
    );
    expect(sellBlockedReason({ source: 'usd', text: '10' }, wire, 'wire')).toBe('Minimum order is $20.00');
    // One satoshi short of the smallest amount leaves $19.99.
    expect(sellBlockedReason({ source: 'btc', text: '0.00047347' }, wire, 'wire')).toBe(
      'Minimum order is $20.00',
    );
  });

  it('has nothing to say for a sell that goes ahead, an empty field or no prices', () => {
    expect(sellBlockedReason({ source: 'btc', text: '0.00047348' }, wire, 'wire')).toBeNull();
    expect(sellBlockedReason({ source: 'btc', text: '' }, wire, 'wire')).toBeNull();
    expect(sellBlockedReason({ source: 'btc', text: '0.01' }, null, 'wire')).toBeNull();
  });
});
