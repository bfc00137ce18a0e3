import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_SATS, SATS_PER_BTC } from '../money/money';
import {
  DEFAULT_PAYOUT_VBYTES,
  INVALID_NETWORK_FEE_INPUT_MESSAGE,
  isAmountInputText,
  isBelowMinimum,
  midMarketPriceCents,
  networkFeeSatsFor,
  QUOTE_TOLERANCE,
  quoteBuyFromBtc,
  quoteBuyFromUsd,
  quotesMatch,
  quoteSellFromBtc,
  quoteSellFromUsd,
  satsAsBtcRoundedUp,
  sellDeadEndMessage,
  smallestSatisfying,
  smallestSellSats,
  spreadAgainstMidCents,
  type BuyQuote,
  type SellQuote,
} from './quote';

/** A seeded generator (mulberry32), so every property run sees the same inputs. */
function randomSource(seed: number) {
  let state = seed >>> 0;
  const next32 = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  /** A whole number from `low` to `high` inclusive (spans up to 2^64). */
  const bigintBetween = (low: bigint, high: bigint): bigint => {
    const word = (BigInt(next32()) << 32n) | BigInt(next32());
    return low + (word % (high - low + 1n));
  };
  /** Often a typical fee, sometimes anything from 0 to 100 %. */
  const feeBps = (): number => {
    const pick = next32() % 10;
    if (pick === 0) return 0;
    if (pick === 1) return 10_000;
    if (pick < 6) return Number(bigintBetween(1n, 500n));
    return Number(bigintBetween(0n, 10_000n));
  };
  return { bigintBetween, feeBps };
}

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const roundUpToHundred = (sats: bigint) => ceilDiv(sats, 100n) * 100n;

// $67,321.55 per BTC with a 1.5 % fee and 10 sat/vB × 141 vB, as in production.
const PRICE = 6_732_155n;
const BUY = { sellPriceCents: PRICE, feeBps: 150, networkFeeSats: 1410n };
const SELL = { buyPriceCents: 6_731_010n, feeBps: 150, bankChargesCents: 500n };
// At $1,000,000 a cent buys exactly one satoshi, which makes rounding edges easy to aim at.
const ONE_SAT_PER_CENT = 100_000_000n;

describe('quoteBuyFromUsd', () => {
  it('takes the fee, the network fee, and delivers what is left in whole 100 satoshis', () => {
    // F = ⌈10000·150/10000⌉ = 150; N = ⌈1410·6732155/10^8⌉ = ⌈94.92⌉ = 95; 9755 cents buy 144,904.x sats.
    expect(quoteBuyFromUsd({ ...BUY, valueCents: 10_000n })).toEqual({
      valueCents: 10_000n,
      platformFeeCents: 150n,
      networkFeeCents: 95n,
      amountSats: 144_900n,
      priceCents: PRICE,
    });
  });

  it.each([
    [10_000n, 150, 150n], // exactly on a cent
    [10_001n, 150, 151n], // 150.015 → up
    [9_999n, 150, 150n], // 149.985 → up
    [20_000n, 150, 300n],
    [20_001n, 150, 301n],
    [10_000n, 1, 1n],
    [10_001n, 1, 2n], // 1.0001 → up
    [1_000_001n, 1, 101n],
    [12_345n, 0, 0n],
  ])('platform fee on %s cents at %s bps is %s cents (rounded up)', (valueCents, feeBps, fee) => {
    const quote = quoteBuyFromUsd({
      valueCents,
      sellPriceCents: ONE_SAT_PER_CENT,
      feeBps,
      networkFeeSats: 0n,
    });
    expect(quote?.platformFeeCents).toBe(fee);
  });

  it.each([
    [1000n, 10_000_000n, 100n], // exactly 100 cents
    [1000n, 10_000_001n, 101n], // 100.00001 → up
    [1000n, 9_999_999n, 100n], // 99.99999 → up
    [1n, PRICE, 1n], // 0.067 cents → 1 cent
    [0n, PRICE, 0n],
    [1410n, 15_000_000n, 212n], // 211.5 → up
  ])(
    'network fee of %s sats at %s cents/BTC is %s cents (rounded up)',
    (networkFeeSats, sellPriceCents, fee) => {
      const quote = quoteBuyFromUsd({ valueCents: 1_000_000n, sellPriceCents, feeBps: 0, networkFeeSats });
      expect(quote?.networkFeeCents).toBe(fee);
    },
  );

  it.each([
    [10_000n, 10_000n], // lands exactly on a 100-sat boundary
    [9_999n, 9_900n], // 1 sat below it: the whole hundred is lost, never rounded up
    [10_099n, 10_000n],
    [10_100n, 10_100n],
    [100n, 100n],
    [199n, 100n],
  ])('%s cents at one sat per cent deliver %s sats', (valueCents, sats) => {
    const quote = quoteBuyFromUsd({
      valueCents,
      sellPriceCents: ONE_SAT_PER_CENT,
      feeBps: 0,
      networkFeeSats: 0n,
    });
    expect(quote?.amountSats).toBe(sats);
  });

  it('gives no quote when nothing or less than 100 satoshis is left', () => {
    const at = (valueCents: bigint) => quoteBuyFromUsd({ ...BUY, valueCents });
    expect(at(0n)).toBeNull();
    expect(at(1n)).toBeNull(); // less than the fees
    expect(at(97n)).toBeNull(); // 97 − 2 − 95 = 0 left
    expect(at(103n)).toBeNull(); // 6 cents buy 89 sats: under one hundred
    // 7 cents buy 103.9 sats: the first quote there is.
    expect(at(104n)).toEqual({
      valueCents: 104n,
      platformFeeCents: 2n,
      networkFeeCents: 95n,
      amountSats: 100n,
      priceCents: PRICE,
    });
    const noFees = { sellPriceCents: ONE_SAT_PER_CENT, feeBps: 0, networkFeeSats: 0n };
    expect(quoteBuyFromUsd({ ...noFees, valueCents: 99n })).toBeNull();
    expect(quoteBuyFromUsd({ ...noFees, valueCents: 100n })?.amountSats).toBe(100n);
  });

  it.each([
    [9_999_999n, { platformFeeCents: 15_000n, networkFeeCents: 141n, amountSats: 9_848_500n }],
    [15_000_000n, { platformFeeCents: 15_000n, networkFeeCents: 212n, amountSats: 6_565_200n }],
    [PRICE, { platformFeeCents: 15_000n, networkFeeCents: 95n, amountSats: 14_629_800n }],
  ])('quotes 10,000 USD at %s cents/BTC', (sellPriceCents, expected) => {
    expect(quoteBuyFromUsd({ ...BUY, sellPriceCents, valueCents: 1_000_000n })).toEqual({
      valueCents: 1_000_000n,
      priceCents: sellPriceCents,
      ...expected,
    });
  });

  it('takes nothing at a 0 % fee and never quotes at a 100 % fee', () => {
    expect(quoteBuyFromUsd({ ...BUY, feeBps: 0, valueCents: 1_000_000n })?.platformFeeCents).toBe(0n);
    expect(quoteBuyFromUsd({ ...BUY, feeBps: 10_000, valueCents: 1_000_000n })).toBeNull();
    expect(
      quoteBuyFromUsd({ ...BUY, feeBps: 10_000, networkFeeSats: 0n, valueCents: 10n ** 15n }),
    ).toBeNull();
    // 99.99 % still leaves something on a large order.
    expect(quoteBuyFromUsd({ ...BUY, feeBps: 9_999, valueCents: 100_000_000n })).toEqual({
      valueCents: 100_000_000n,
      platformFeeCents: 99_990_000n,
      networkFeeCents: 95n,
      amountSats: 147_100n,
      priceCents: PRICE,
    });
  });

  it('never lets the delivered bitcoin cost more than what is left after fees (seeded, 3000 cases)', () => {
    const random = randomSource(20_240_611);
    for (let i = 0; i < 3000; i++) {
      const input = {
        valueCents: random.bigintBetween(0n, 1_000_000_000n),
        sellPriceCents: random.bigintBetween(10_000n, 1_000_000_000n),
        feeBps: random.feeBps(),
        networkFeeSats: random.bigintBetween(0n, 100_000n),
      };
      const fee = ceilDiv(input.valueCents * BigInt(input.feeBps), 10_000n);
      const networkFee = ceilDiv(input.networkFeeSats * input.sellPriceCents, SATS_PER_BTC);
      const left = input.valueCents - fee - networkFee;
      const quote = quoteBuyFromUsd(input);
      if (quote === null) {
        // No quote only when what is left cannot buy a single hundred satoshis.
        expect(left * SATS_PER_BTC < 100n * input.sellPriceCents).toBe(true);
        continue;
      }
      expect(quote.platformFeeCents).toBe(fee);
      expect(quote.networkFeeCents).toBe(networkFee);
      expect(quote.amountSats % 100n).toBe(0n);
      expect(quote.amountSats > 0n).toBe(true);
      // The operator never loses: the coins at the sell price cost at most V − F − N...
      expect(quote.amountSats * input.sellPriceCents <= left * SATS_PER_BTC).toBe(true);
      // ...and the customer is not short-changed by more than the 100-sat step.
      expect((quote.amountSats + 100n) * input.sellPriceCents > left * SATS_PER_BTC).toBe(true);
    }
  });
});

describe('quoteBuyFromBtc', () => {
  it('answers the smallest payment that delivers the amount', () => {
    const quote = quoteBuyFromBtc({ ...BUY, amountSats: 100_000n });
    expect(quote).toEqual({
      valueCents: 6_932n,
      platformFeeCents: 104n,
      networkFeeCents: 95n,
      amountSats: 100_000n,
      priceCents: PRICE,
    });
    expect(quoteBuyFromUsd({ ...BUY, valueCents: 6_931n })?.amountSats).toBe(99_900n);
  });

  it('rounds the requested amount up to whole 100 satoshis', () => {
    const at = (amountSats: bigint) => quoteBuyFromBtc({ ...BUY, amountSats });
    expect(at(99_901n)).toEqual(at(100_000n));
    expect(at(100_001n)?.amountSats).toBe(100_100n);
    expect(at(1n)?.amountSats).toBe(100n);
    expect(at(1n)?.valueCents).toBe(104n); // the first buy quote there is (see above)
  });

  it('gives no quote for nothing, or at a 100 % fee', () => {
    expect(quoteBuyFromBtc({ ...BUY, amountSats: 0n })).toBeNull();
    expect(quoteBuyFromBtc({ ...BUY, feeBps: 10_000, amountSats: 100_000n })).toBeNull();
  });

  it('quotes 0.01 BTC at 9,999,999 cents/BTC and 0.1 BTC at 15,000,000 cents/BTC', () => {
    expect(quoteBuyFromBtc({ ...BUY, sellPriceCents: 9_999_999n, amountSats: 1_000_000n })).toEqual({
      valueCents: 101_666n,
      platformFeeCents: 1_525n,
      networkFeeCents: 141n,
      amountSats: 1_000_000n,
      priceCents: 9_999_999n,
    });
    const big = quoteBuyFromBtc({ ...BUY, sellPriceCents: 15_000_000n, amountSats: 10_000_000n });
    expect(big?.amountSats).toBe(10_000_000n);
    expect(
      quoteBuyFromUsd({ ...BUY, sellPriceCents: 15_000_000n, valueCents: big!.valueCents - 1n })?.amountSats,
    ).toBe(9_999_900n);
  });

  it('at a low price may deliver more than asked, but never for a cent less', () => {
    // At $100 per BTC one cent buys 10,000 sats, so 100 sats cannot be bought alone.
    const input = { sellPriceCents: 10_000n, feeBps: 0, networkFeeSats: 0n };
    const quote = quoteBuyFromBtc({ ...input, amountSats: 100n });
    expect(quote).toEqual(quoteBuyFromUsd({ ...input, valueCents: 1n }));
    expect(quote?.amountSats).toBe(10_000n);
  });

  it.each([
    ['a realistic price', BUY],
    ['one sat per cent', { sellPriceCents: ONE_SAT_PER_CENT, feeBps: 250, networkFeeSats: 500n }],
    ['a $100 price', { sellPriceCents: 10_000n, feeBps: 99, networkFeeSats: 3_000n }],
    ['a 0 % fee', { sellPriceCents: 9_999_999n, feeBps: 0, networkFeeSats: 0n }],
  ])('matches an exhaustive search over every payment at %s', (_label, fees) => {
    // Walk every payment upwards and note the first one reaching each amount.
    const firstPaymentFor = new Map<bigint, bigint>();
    let reached = 0n;
    for (let valueCents = 0n; valueCents <= 40_000n; valueCents++) {
      const sats = quoteBuyFromUsd({ ...fees, valueCents })?.amountSats ?? 0n;
      for (; reached < sats; reached += 100n) firstPaymentFor.set(reached + 100n, valueCents);
      if (reached >= 2_000_000n) break;
    }
    expect(firstPaymentFor.size).toBeGreaterThan(10);
    for (const [sats, valueCents] of firstPaymentFor) {
      expect(quoteBuyFromBtc({ ...fees, amountSats: sats })?.valueCents).toBe(valueCents);
      expect(quoteBuyFromBtc({ ...fees, amountSats: sats - 99n })?.valueCents).toBe(valueCents);
    }
  });

  it('finds the minimal payment, consistent with quoteBuyFromUsd (seeded, 2000 cases)', () => {
    const random = randomSource(7);
    for (let i = 0; i < 2000; i++) {
      const fees = {
        sellPriceCents: random.bigintBetween(10_000n, 1_000_000_000n),
        feeBps: random.feeBps(),
        networkFeeSats: random.bigintBetween(0n, 100_000n),
      };
      const amountSats = random.bigintBetween(0n, 10n * SATS_PER_BTC);
      const wanted = roundUpToHundred(amountSats);
      const quote = quoteBuyFromBtc({ ...fees, amountSats });
      if (wanted === 0n || fees.feeBps === 10_000) {
        expect(quote).toBeNull();
        continue;
      }
      expect(quote).not.toBeNull();
      if (!quote) continue;
      expect(quote).toEqual(quoteBuyFromUsd({ ...fees, valueCents: quote.valueCents }));
      expect(quote.amountSats >= wanted).toBe(true);
      // Minimal: one cent less delivers less than asked (or nothing).
      const oneCentLess = quoteBuyFromUsd({ ...fees, valueCents: quote.valueCents - 1n });
      expect((oneCentLess?.amountSats ?? 0n) < wanted).toBe(true);
      // Above $10,000 per BTC a cent buys under 100 sats, so the amount is exactly what was asked.
      if (fees.sellPriceCents >= 1_000_000n) expect(quote.amountSats).toBe(wanted);
    }
  });
});

describe('quoteSellFromBtc', () => {
  it('pays the gross value less the fee and the bank charges', () => {
    // G = 6,731,010; F = ⌈100,965.15⌉ = 100,966; R = G − F − 500.
    expect(quoteSellFromBtc({ ...SELL, amountSats: SATS_PER_BTC })).toEqual({
      amountSats: SATS_PER_BTC,
      grossCents: 6_731_010n,
      platformFeeCents: 100_966n,
      bankFeeCents: 500n,
      valueCents: 6_629_544n,
      priceCents: 6_731_010n,
    });
  });

  it('rounds the gross value down to the cent', () => {
    const at = (amountSats: bigint) =>
      quoteSellFromBtc({ buyPriceCents: PRICE, feeBps: 0, bankChargesCents: 0n, amountSats });
    expect(at(1_485n)?.grossCents).toBe(99n); // 99.97 cents
    expect(at(1_486n)?.grossCents).toBe(100n); // 100.04 cents
    expect(at(1n)).toBeNull(); // 0.067 cents is nothing
    expect(at(14n)).toBeNull();
    expect(at(15n)?.grossCents).toBe(1n);
  });

  it.each([
    [10_000n, 150n],
    [10_001n, 151n],
    [9_999n, 150n],
    [1_000_001n, 15_001n], // 15,000.015 → up
  ])('fee on a gross of %s cents at 1.5 %% is %s cents (rounded up)', (grossCents, fee) => {
    const quote = quoteSellFromBtc({
      buyPriceCents: ONE_SAT_PER_CENT,
      feeBps: 150,
      bankChargesCents: 0n,
      amountSats: grossCents,
    });
    expect(quote?.platformFeeCents).toBe(fee);
  });

  it('gives no quote when fees and charges take everything', () => {
    const at = (amountSats: bigint, feeBps = 150) =>
      quoteSellFromBtc({ buyPriceCents: ONE_SAT_PER_CENT, feeBps, bankChargesCents: 500n, amountSats });
    expect(at(0n)).toBeNull();
    expect(at(500n, 0)).toBeNull(); // exactly the bank charges
    expect(at(501n, 0)?.valueCents).toBe(1n);
    expect(at(508n)).toBeNull(); // 508 − 8 − 500 = 0
    expect(at(509n)?.valueCents).toBe(1n);
    expect(at(SATS_PER_BTC, 10_000)).toBeNull();
  });

  it('quotes 10 BTC at 9,999,999 cents/BTC and 0.15 BTC at 15,000,000 cents/BTC', () => {
    expect(
      quoteSellFromBtc({
        ...SELL,
        buyPriceCents: 9_999_999n,
        bankChargesCents: 2_500n,
        amountSats: 1_000_000_000n,
      }),
    ).toEqual({
      amountSats: 1_000_000_000n,
      grossCents: 99_999_990n,
      platformFeeCents: 1_500_000n,
      bankFeeCents: 2_500n,
      valueCents: 98_497_490n,
      priceCents: 9_999_999n,
    });
    expect(
      quoteSellFromBtc({
        ...SELL,
        buyPriceCents: 15_000_000n,
        bankChargesCents: 2_500n,
        amountSats: 15_000_000n,
      }),
    ).toEqual({
      amountSats: 15_000_000n,
      grossCents: 2_250_000n,
      platformFeeCents: 33_750n,
      bankFeeCents: 2_500n,
      valueCents: 2_213_750n,
      priceCents: 15_000_000n,
    });
  });

  it('never pays out more than the coins are worth (seeded, 3000 cases)', () => {
    const random = randomSource(99);
    for (let i = 0; i < 3000; i++) {
      const input = {
        amountSats: random.bigintBetween(0n, 100n * SATS_PER_BTC),
        buyPriceCents: random.bigintBetween(10_000n, 1_000_000_000n),
        feeBps: random.feeBps(),
        bankChargesCents: random.bigintBetween(0n, 10_000n),
      };
      const quote = quoteSellFromBtc(input);
      const worth = input.amountSats * input.buyPriceCents;
      const gross = worth / SATS_PER_BTC;
      const fee = ceilDiv(gross * BigInt(input.feeBps), 10_000n);
      if (quote === null) {
        expect(gross - fee - input.bankChargesCents <= 0n).toBe(true);
        continue;
      }
      expect(quote.grossCents * SATS_PER_BTC <= worth).toBe(true);
      expect((quote.grossCents + 1n) * SATS_PER_BTC > worth).toBe(true);
      expect(quote.platformFeeCents * 10_000n >= quote.grossCents * BigInt(input.feeBps)).toBe(true);
      expect(quote.valueCents).toBe(quote.grossCents - quote.platformFeeCents - quote.bankFeeCents);
      expect(quote.valueCents > 0n).toBe(true);
    }
  });
});

describe('quoteSellFromUsd', () => {
  it('answers the smallest amount of bitcoin that pays the value', () => {
    const quote = quoteSellFromUsd({ ...SELL, valueCents: 10_000n });
    expect(quote).toEqual({
      amountSats: 158_372n,
      grossCents: 10_660n,
      platformFeeCents: 160n,
      bankFeeCents: 500n,
      valueCents: 10_000n,
      priceCents: 6_731_010n,
    });
    expect(quoteSellFromBtc({ ...SELL, amountSats: 158_371n })?.valueCents).toBe(9_999n);
  });

  it('gives no quote for nothing, or at a 100 % fee', () => {
    expect(quoteSellFromUsd({ ...SELL, valueCents: 0n })).toBeNull();
    expect(quoteSellFromUsd({ ...SELL, feeBps: 10_000, valueCents: 10_000n })).toBeNull();
  });

  it('quotes 10,000 USD at 9,999,999 and 15,000,000 cents/BTC', () => {
    for (const buyPriceCents of [9_999_999n, 15_000_000n]) {
      const quote = quoteSellFromUsd({ ...SELL, buyPriceCents, valueCents: 1_000_000n });
      expect(quote?.valueCents).toBe(1_000_000n);
      expect(
        quoteSellFromBtc({ ...SELL, buyPriceCents, amountSats: quote!.amountSats - 1n })?.valueCents,
      ).toBe(999_999n);
    }
  });

  it('at a price above 1,000,000 USD per BTC may pay more than asked, but never needs a satoshi less', () => {
    // 1 sat is worth 3 cents here, so the value moves in steps of about 3 cents.
    const input = { buyPriceCents: 300_000_000n, feeBps: 0, bankChargesCents: 0n };
    expect(quoteSellFromUsd({ ...input, valueCents: 4n })).toEqual(
      quoteSellFromBtc({ ...input, amountSats: 2n }),
    );
  });

  it.each([
    ['a realistic price', SELL],
    ['a $1,000 price', { buyPriceCents: 100_000n, feeBps: 99, bankChargesCents: 50n }],
    ['a 0 % fee and no charges', { buyPriceCents: 9_999_999n, feeBps: 0, bankChargesCents: 0n }],
  ])('matches an exhaustive search over every amount at %s', (_label, fees) => {
    const firstAmountFor = new Map<bigint, bigint>();
    let reached = 0n;
    for (let amountSats = 0n; amountSats <= 400_000n; amountSats += 1n) {
      const cents = quoteSellFromBtc({ ...fees, amountSats })?.valueCents ?? 0n;
      for (; reached < cents; reached++) firstAmountFor.set(reached + 1n, amountSats);
      if (reached >= 3_000n) break;
    }
    expect(firstAmountFor.size).toBeGreaterThan(10);
    for (const [valueCents, amountSats] of firstAmountFor) {
      expect(quoteSellFromUsd({ ...fees, valueCents })?.amountSats).toBe(amountSats);
    }
  });

  it('finds the minimal amount, consistent with quoteSellFromBtc (seeded, 2000 cases)', () => {
    const random = randomSource(424_242);
    for (let i = 0; i < 2000; i++) {
      const fees = {
        buyPriceCents: random.bigintBetween(10_000n, 1_000_000_000n),
        feeBps: random.feeBps(),
        bankChargesCents: random.bigintBetween(0n, 10_000n),
      };
      const valueCents = random.bigintBetween(0n, 1_000_000_000n);
      const quote = quoteSellFromUsd({ ...fees, valueCents });
      if (valueCents === 0n || fees.feeBps === 10_000) {
        expect(quote).toBeNull();
        continue;
      }
      expect(quote).not.toBeNull();
      if (!quote) continue;
      expect(quote).toEqual(quoteSellFromBtc({ ...fees, amountSats: quote.amountSats }));
      expect(quote.valueCents >= valueCents).toBe(true);
      const oneSatLess = quoteSellFromBtc({ ...fees, amountSats: quote.amountSats - 1n });
      expect((oneSatLess?.valueCents ?? 0n) < valueCents).toBe(true);
      // Below $1,000,000 per BTC a satoshi is worth under a cent, so the value is exactly what was asked.
      if (fees.buyPriceCents <= SATS_PER_BTC) expect(quote.valueCents).toBe(valueCents);
    }
  });
});

describe("smallestSatisfying (the reverse quotes' search)", () => {
  it.each([1n, 2n, 41n, 42n, 43n, 100n, 10n ** 12n])('finds 42 from the estimate %s', (estimate) => {
    expect(smallestSatisfying(estimate, (x) => x >= 42n)).toBe(42n);
  });

  it.each([-5n, 0n, 1n, 7n, 10n ** 9n])('finds 1 from the estimate %s', (estimate) => {
    expect(smallestSatisfying(estimate, (x) => x >= 1n)).toBe(1n);
  });

  it('finds every threshold from every estimate in a small range', () => {
    for (let threshold = 1n; threshold <= 70n; threshold++) {
      for (let estimate = 0n; estimate <= 140n; estimate++) {
        expect(smallestSatisfying(estimate, (x) => x >= threshold)).toBe(threshold);
      }
    }
  });

  it('costs two evaluations when the estimate is exact', () => {
    let calls = 0;
    smallestSatisfying(1_000n, (x) => {
      calls++;
      return x >= 1_000n;
    });
    expect(calls).toBe(2);
  });
});

describe('input checks', () => {
  it('refuses numbers where bigints belong, so floats cannot slip into the money', () => {
    const asBigint = (n: number) => n as unknown as bigint;
    expect(() => quoteBuyFromUsd({ ...BUY, valueCents: asBigint(100.5) })).toThrow(
      new TypeError('valueCents must be a bigint, not number.'),
    );
    expect(() => quoteBuyFromBtc({ ...BUY, amountSats: 1n, sellPriceCents: asBigint(6_732_155) })).toThrow(
      new TypeError('sellPriceCents must be a bigint, not number.'),
    );
    expect(() => quoteSellFromBtc({ ...SELL, amountSats: asBigint(1e8) })).toThrow(
      new TypeError('amountSats must be a bigint, not number.'),
    );
    expect(() => quoteSellFromUsd({ ...SELL, valueCents: 1n, bankChargesCents: asBigint(5) })).toThrow(
      new TypeError('bankChargesCents must be a bigint, not number.'),
    );
  });

  it('refuses negative amounts, non-positive prices and fees outside 0–100 %', () => {
    expect(() => quoteBuyFromUsd({ ...BUY, valueCents: -1n })).toThrow(RangeError);
    expect(() => quoteBuyFromUsd({ ...BUY, networkFeeSats: -1n, valueCents: 1n })).toThrow(RangeError);
    expect(() => quoteBuyFromUsd({ ...BUY, sellPriceCents: 0n, valueCents: 1n })).toThrow(RangeError);
    expect(() => quoteSellFromBtc({ ...SELL, buyPriceCents: -5n, amountSats: 1n })).toThrow(RangeError);
    expect(() => quoteSellFromUsd({ ...SELL, bankChargesCents: -1n, valueCents: 1n })).toThrow(RangeError);
    for (const feeBps of [-1, 10_001, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => quoteBuyFromUsd({ ...BUY, feeBps, valueCents: 1n })).toThrow(RangeError);
      expect(() => quoteSellFromUsd({ ...SELL, feeBps, valueCents: 1n })).toThrow(RangeError);
    }
  });
});

describe('integer arithmetic only', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is exact far beyond 2^53, where a float would be off', () => {
    const input = {
      amountSats: MAX_SATS - 1n,
      buyPriceCents: 999_999_999n,
      feeBps: 7,
      bankChargesCents: 123n,
    };
    const quote = quoteSellFromBtc(input);
    expect(quote?.grossCents).toBe(20_999_999_978_999_990n);
    // The float version of the same sum is two cents off.
    expect(Math.floor((Number(input.amountSats) * Number(input.buyPriceCents)) / 1e8)).not.toBe(
      Number(quote?.grossCents),
    );
    expect(quote?.platformFeeCents).toBe(14_699_999_985_300n);
    expect(quote?.valueCents).toBe(20_985_299_979_014_567n);
    expect(quoteBuyFromUsd({ ...BUY, valueCents: 1_000_000_000_000n })?.amountSats).toBe(14_631_273_342_700n);
  });

  it('never calls a floating-point rounding function while quoting', () => {
    const spies = (['floor', 'ceil', 'round', 'trunc', 'pow'] as const).map((name) => vi.spyOn(Math, name));
    const results: unknown[] = [
      quoteBuyFromUsd({ ...BUY, valueCents: 123_456n }),
      quoteBuyFromBtc({ ...BUY, amountSats: 123_456n }),
      quoteSellFromBtc({ ...SELL, amountSats: 123_456n }),
      quoteSellFromUsd({ ...SELL, valueCents: 123_456n }),
      networkFeeSatsFor(12.34),
    ];
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    for (const result of results) {
      const values = typeof result === 'bigint' ? [result] : Object.values(result as object);
      for (const value of values) expect(typeof value).toBe('bigint');
    }
  });
});

describe('networkFeeSatsFor', () => {
  it.each([
    [10, DEFAULT_PAYOUT_VBYTES, 1_410n],
    [1, 141, 141n],
    [2.5, 141, 353n], // 352.5 → up
    [0.1, 141, 15n], // 14.1 → up
    [1.1, 100, 110n], // exactly 110, although 1.1 * 100 is 110.00000000000001 as floats
    [0, 141, 0n],
    [10, 0, 0n],
    [1e-7, 141, 1n], // printed as '1e-7'
    [1e21, 1, 1_000_000_000_000_000_000_000n], // printed as '1e+21'
    [12.34, 140.25, 1_731n], // 1730.685 → up
  ])('%s sat/vB × %s vB is %s sats', (rate, size, sats) => {
    expect(networkFeeSatsFor(rate, size)).toBe(sats);
  });

  it('uses a 141 vB payout by default', () => {
    expect(DEFAULT_PAYOUT_VBYTES).toBe(141);
    expect(networkFeeSatsFor(3)).toBe(423n);
    // The trap it avoids: the float product rounds up to one satoshi too many.
    expect(Math.ceil(1.1 * 100)).toBe(111);
  });

  it.each([Number.NaN, -1, -0.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '10', null, 10n])(
    'refuses %s with the specification’s message',
    (bad) => {
      expect(() => networkFeeSatsFor(bad as number)).toThrow(new Error(INVALID_NETWORK_FEE_INPUT_MESSAGE));
      expect(() => networkFeeSatsFor(10, bad as number)).toThrow(
        'Invalid input. Transaction size and fee rate must be numbers.',
      );
    },
  );

  it('refuses a missing fee rate (a missing size means the default payout)', () => {
    expect(() => networkFeeSatsFor(undefined as unknown as number)).toThrow(
      INVALID_NETWORK_FEE_INPUT_MESSAGE,
    );
  });
});

describe('quotesMatch', () => {
  const buy: BuyQuote = quoteBuyFromUsd({ ...BUY, valueCents: 100_000n })!;
  const sell: SellQuote = quoteSellFromBtc({ ...SELL, amountSats: 1_000_000n })!;

  it('accepts the tolerance of 1 cent and 100 satoshis', () => {
    expect(QUOTE_TOLERANCE).toEqual({ cents: 1n, sats: 100n });
    expect(quotesMatch(buy, { ...buy })).toBe(true);
    expect(quotesMatch(sell, { ...sell })).toBe(true);
    expect(quotesMatch(buy, { ...buy, amountSats: buy.amountSats + 100n })).toBe(true);
    expect(quotesMatch(buy, { ...buy, amountSats: buy.amountSats - 101n })).toBe(false);
    expect(quotesMatch(sell, { ...sell, amountSats: sell.amountSats + 101n })).toBe(false);
  });

  it.each(['valueCents', 'platformFeeCents', 'networkFeeCents', 'priceCents'] as const)(
    'checks the buy quote’s %s within a cent',
    (field) => {
      expect(quotesMatch(buy, { ...buy, [field]: buy[field] + 1n })).toBe(true);
      expect(quotesMatch(buy, { ...buy, [field]: buy[field] - 1n })).toBe(true);
      expect(quotesMatch(buy, { ...buy, [field]: buy[field] + 2n })).toBe(false);
      expect(quotesMatch({ ...buy, [field]: buy[field] - 2n }, buy)).toBe(false);
    },
  );

  it.each(['grossCents', 'platformFeeCents', 'bankFeeCents', 'valueCents', 'priceCents'] as const)(
    'checks the sell quote’s %s within a cent',
    (field) => {
      expect(quotesMatch(sell, { ...sell, [field]: sell[field] + 1n })).toBe(true);
      expect(quotesMatch(sell, { ...sell, [field]: sell[field] + 2n })).toBe(false);
      expect(quotesMatch({ ...sell, [field]: sell[field] - 2n }, sell)).toBe(false);
    },
  );

  it('never matches a buy quote with a sell quote', () => {
    const asBuy = (quote: SellQuote) => quote as unknown as BuyQuote;
    expect(quotesMatch(buy, asBuy(sell))).toBe(false);
    expect(quotesMatch(asBuy(sell), buy)).toBe(false);
  });
});

describe('isAmountInputText', () => {
  it.each(['', '.', '0', '12', '12.', '.5', '12.34', '0001.000000001', '99999999999999'])(
    'accepts %j',
    (text) => {
      expect(isAmountInputText(text)).toBe(true);
    },
  );

  it.each([
    '-1',
    '+1',
    '1e5',
    '1E5',
    ' 1',
    '1 ',
    '1,000',
    '1.2.3',
    '..',
    'abc',
    '0x10',
    'NaN',
    'Infinity',
    '١٢',
    '１',
  ])('refuses %j', (text) => {
    expect(isAmountInputText(text)).toBe(false);
  });

  it('refuses what is not text at all', () => {
    expect(isAmountInputText(12 as unknown as string)).toBe(false);
  });
});

describe('isBelowMinimum', () => {
  it('is true only strictly below the minimum order size', () => {
    expect(isBelowMinimum(999n, 1_000n)).toBe(true);
    expect(isBelowMinimum(0n, 1_000n)).toBe(true);
    expect(isBelowMinimum(1_000n, 1_000n)).toBe(false);
    expect(isBelowMinimum(1_001n, 1_000n)).toBe(false);
  });
});

describe('smallestSellSats (a sell that leaves something to receive)', () => {
  // Each payout method has its own bank charges in the settings.
  it.each([
    ['zelle', 0n],
    ['ach', 1_500n],
    ['wire', 4_500n],
  ] as const)(
    'for %s (%s cents of bank charges) exactly the minimum pays a cent, one satoshi less nothing',
    (_method, bankChargesCents) => {
      const input = { buyPriceCents: SELL.buyPriceCents, feeBps: 150, bankChargesCents };
      const smallest = smallestSellSats(input);
      expect(smallest).not.toBeNull();
      const at = (amountSats: bigint) => quoteSellFromBtc({ ...input, amountSats });
      expect(at(smallest!)?.valueCents).toBeGreaterThanOrEqual(1n);
      expect(at(smallest! - 1n)).toBeNull();
    },
  );

  it('is the hand-worked amount at one satoshi per cent', () => {
    // G − ⌈G · 1.5 %⌉ − 500 ≥ 1: G = 509 leaves 509 − 8 − 500 = 1 cent; G = 508 leaves 508 − 8 − 500 = 0.
    expect(smallestSellSats({ buyPriceCents: ONE_SAT_PER_CENT, feeBps: 150, bankChargesCents: 500n })).toBe(
      509n,
    );
    expect(smallestSellSats({ buyPriceCents: ONE_SAT_PER_CENT, feeBps: 0, bankChargesCents: 0n })).toBe(1n);
  });

  it('also pays at least the minimum order size when given', () => {
    const input = {
      buyPriceCents: ONE_SAT_PER_CENT,
      feeBps: 0,
      bankChargesCents: 500n,
      minOrderCents: 1_000n,
    };
    expect(smallestSellSats(input)).toBe(1_500n);
    expect(quoteSellFromBtc({ ...input, amountSats: 1_499n })?.valueCents).toBe(999n);
  });

  it('is null when a 100 % fee leaves nothing whatever the amount', () => {
    expect(smallestSellSats({ buyPriceCents: PRICE, feeBps: 10_000, bankChargesCents: 0n })).toBeNull();
  });
});

describe('sellDeadEndMessage', () => {
  it('names the method and the smallest amount in BTC to 6 decimals, rounded up', () => {
    expect(sellDeadEndMessage('wire', 41_101n)).toBe(
      'For a wire payout, sell at least 0.000412 BTC: the bank charges and fee would leave nothing to receive.',
    );
    expect(sellDeadEndMessage('ach', 41_100n)).toMatch(/^For an ACH payout, sell at least 0\.000411 BTC:/);
    expect(sellDeadEndMessage('zelle', 1n)).toMatch(/^For a Zelle payout, sell at least 0\.000001 BTC:/);
    expect(satsAsBtcRoundedUp(123_456_789_00n)).toBe('123.456789');
  });
});

describe('the all-in price against the mid-market price', () => {
  it('is halfway between our two prices, and the spread is half their gap on the amount, rounded up', () => {
    expect(midMarketPriceCents(9_712_345n, 9_650_000n)).toBe(9_681_172n);
    // 0.01 BTC × ($97,123.45 − $96,500.00) / 2 = $3.117… → $3.12.
    expect(
      spreadAgainstMidCents({
        amountSats: 1_000_000n,
        sellPriceCents: 9_712_345n,
        buyPriceCents: 9_650_000n,
      }),
    ).toBe(312n);
    expect(
      spreadAgainstMidCents({ amountSats: 0n, sellPriceCents: 9_712_345n, buyPriceCents: 9_650_000n }),
    ).toBe(0n);
    expect(() => spreadAgainstMidCents({ amountSats: -1n, sellPriceCents: 1n, buyPriceCents: 1n })).toThrow(
      RangeError,
    );
    expect(() => midMarketPriceCents(0n, 1n)).toThrow(RangeError);
  });
});
