import type { Cents } from '@offzero/shared/money/money';
import type { PriceSource } from './price-source';

export interface DemoPriceSourceOptions {
  /** The same seed gives the same prices, fetch after fetch. */
  seed?: number;
  /** The middle price to start from, in cents per BTC. */
  startCents?: Cents;
}

/** Each fetch moves the middle price by at most ±0.3 %, in steps of a millionth. */
const MAX_STEP_PPM = 3_000;
/** Half the spread: buy and sell sit 0.25 % either side of the middle, 0.5 % apart. */
const HALF_SPREAD_PPM = 2_500n;
const PPM = 1_000_000n;

/** mulberry32: a small, fast, seeded generator of 32-bit numbers. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/**
 * Demo prices: a random walk around a realistic price, so the screens move as they would in production.
 * It stays within 80 % … 125 % of where it started (a step that would leave that band is taken the other
 * way), which also keeps it far from zero. Integer arithmetic throughout.
 */
export function createDemoPriceSource(options: DemoPriceSourceOptions = {}): PriceSource {
  const startCents = options.startCents ?? 6_700_000n;
  if (startCents < 1_000_000n) throw new RangeError('The demo price starts at $10,000 per BTC or more.');
  const lowest = (startCents * 4n) / 5n;
  const highest = (startCents * 5n) / 4n;
  const next32 = seededRandom(options.seed ?? 1);
  let middle = startCents;

  return {
    name: 'demo',
    async fetchQuote() {
      const stepPpm = BigInt((next32() % (2 * MAX_STEP_PPM + 1)) - MAX_STEP_PPM);
      let moved = middle + (middle * stepPpm) / PPM;
      if (moved < lowest || moved > highest) moved = middle - (middle * stepPpm) / PPM;
      middle = moved;
      const halfSpread = (middle * HALF_SPREAD_PPM) / PPM;
      return { exchangeBuyCents: middle + halfSpread, exchangeSellCents: middle - halfSpread };
    },
  };
}
