import { describe, expect, it } from 'vitest';
import { formatBtc, formatUsd } from '@offzero/shared/money/money';
import {
  quoteBuyFromBtc,
  quoteBuyFromUsd,
  quoteSellFromBtc,
  quoteSellFromUsd,
} from '@offzero/shared/quotes/quote';
import {
  acceptsAmountText,
  buyQuoteFor,
  fieldTexts,
  MAX_DECIMALS,
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
  it('refuse anything but digits and one point', () => {
    for (const text of ['abc', '1a', '1,5', '-1', '+1', '1e5', '0x10', '1.2.3', ' 1', '1 000', 'NaN', '١']) {
      expect(acceptsAmountText(text, 8), text).toBe(false);
    }
  });

  it('accept an empty field, a lone point and plain decimals', () => {
    for (const text of ['', '.', '0', '12', '12.', '.5', '250.25']) {
      expect(acceptsAmountText(text, 2), text).toBe(true);
    }
  });

  it('refuse more decimals than the unit has', () => {
    expect(acceptsAmountText('1.234', MAX_DECIMALS.usd)).toBe(false);
    expect(acceptsAmountText('0.1234567', MAX_DECIMALS.buyBtc)).toBe(false);
    expect(acceptsAmountText('0.123456', MAX_DECIMALS.buyBtc)).toBe(true);
    expect(acceptsAmountText('0.123456', MAX_DECIMALS.sellBtc)).toBe(true);
    expect(acceptsAmountText('0.1234567', MAX_DECIMALS.sellBtc)).toBe(false);
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
