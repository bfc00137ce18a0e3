import { describe, expect, it } from 'vitest';
import { createDemoPriceSource } from './demo-price-source';
import { checkExchangeQuote, type ExchangeQuote, type PriceSource } from './price-source';

async function walk(source: PriceSource, steps: number): Promise<ExchangeQuote[]> {
  const quotes: ExchangeQuote[] = [];
  for (let i = 0; i < steps; i++) quotes.push(await source.fetchQuote());
  return quotes;
}

const middleOf = (quote: ExchangeQuote) => (quote.exchangeBuyCents + quote.exchangeSellCents) / 2n;

describe('demo price source', () => {
  it('is deterministic for a seed, and differs between seeds', async () => {
    const first = await walk(createDemoPriceSource({ seed: 42 }), 200);
    const again = await walk(createDemoPriceSource({ seed: 42 }), 200);
    const other = await walk(createDemoPriceSource({ seed: 43 }), 200);
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    expect(createDemoPriceSource().name).toBe('demo');
  });

  it('starts near 67,000 USD with a 0.5 % spread', async () => {
    const [quote] = await walk(createDemoPriceSource({ seed: 7 }), 1);
    expect(quote).toBeDefined();
    const middle = middleOf(quote!);
    expect(middle).toBeGreaterThanOrEqual(6_679_000n);
    expect(middle).toBeLessThanOrEqual(6_721_000n);
    const spread = quote!.exchangeBuyCents - quote!.exchangeSellCents;
    // 0.5 % of the middle, give or take the cent lost to rounding each half.
    expect(spread * 1_000n).toBeGreaterThanOrEqual(middle * 5n - 2_000n);
    expect(spread * 1_000n).toBeLessThanOrEqual(middle * 5n + 2_000n);
  });

  it('moves at most 0.3 % per fetch, stays plausible and never goes negative (10,000 fetches)', async () => {
    const start = 6_700_000n;
    const quotes = await walk(createDemoPriceSource({ seed: 2024, startCents: start }), 10_000);
    let previous = start;
    let moves = 0;
    const problems: string[] = [];
    for (const [i, quote] of quotes.entries()) {
      const { exchangeBuyCents: buy, exchangeSellCents: sell } = quote;
      if (typeof buy !== 'bigint' || typeof sell !== 'bigint') problems.push(`${i}: not bigint`);
      if (!(sell > 0n && buy > sell)) problems.push(`${i}: buy ${buy}, sell ${sell}`);
      try {
        checkExchangeQuote('demo', quote);
      } catch (error) {
        problems.push(`${i}: ${(error as Error).message}`);
      }
      const middle = middleOf(quote);
      const step = middle > previous ? middle - previous : previous - middle;
      // At most 0.3 % of the previous middle.
      if (step * 1_000n > previous * 3n) problems.push(`${i}: moved ${step} from ${previous}`);
      if (middle < (start * 4n) / 5n || middle > (start * 5n) / 4n)
        problems.push(`${i}: left the band at ${middle}`);
      if (step > 0n) moves++;
      previous = middle;
    }
    expect(problems).toEqual([]);
    expect(moves).toBeGreaterThan(9_000);
  });

  it('refuses a starting price that is not realistic', () => {
    expect(() => createDemoPriceSource({ startCents: 0n })).toThrow(RangeError);
    expect(() => createDemoPriceSource({ startCents: -6_700_000n })).toThrow(RangeError);
  });
});
