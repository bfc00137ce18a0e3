import type { Cents, Sats } from '@offzero/shared/money/money';
import { quoteSellFromBtc, type SellQuote } from '@offzero/shared/quotes/quote';

const SATS_PER_BTC = 100_000_000n;

export interface DepositPricingInput {
  /** Everything credited to the order that is still on the chain: split deposits count together. */
  receivedSats: Sats;
  /** What the customer was quoted for. */
  quotedSats: Sats;
  /** The price of the quoted part: the locked one, or today's for a deposit after the window closed. */
  basePriceCents: Cents;
  lockedPriceCents: Cents;
  /** Today's buy price; null when none is fresh (the locked price stands in). */
  currentPriceCents: Cents | null;
  feeBps: number;
  bankChargesCents: Cents;
}

/**
 * Prices what arrived for a sell (docs/design.md), for the deposit watcher. Up to the quoted amount at the base price; anything
 * beyond it at the lower of the locked and the current price, so a customer who sends more after the
 * price fell cannot sell the extra at the old, higher price. The platform fee is taken on the whole
 * gross and the method's bank charges once. Null when nothing would be left to pay out.
 */
export function priceDeposits(input: DepositPricingInput): SellQuote | null {
  const { receivedSats, quotedSats, basePriceCents, feeBps, bankChargesCents } = input;
  const current = input.currentPriceCents ?? input.lockedPriceCents;
  const excessPriceCents = current < input.lockedPriceCents ? current : input.lockedPriceCents;
  const excessSats = receivedSats > quotedSats ? receivedSats - quotedSats : 0n;
  if (excessSats === 0n || excessPriceCents >= basePriceCents) {
    // One price for all of it (an excess is never priced above the base).
    const price = excessSats === 0n ? basePriceCents : excessPriceCents;
    return quoteSellFromBtc({ amountSats: receivedSats, buyPriceCents: price, feeBps, bankChargesCents });
  }
  const baseGross = (quotedSats * basePriceCents) / SATS_PER_BTC;
  const excessGross = (excessSats * excessPriceCents) / SATS_PER_BTC;
  const grossCents = baseGross + excessGross;
  const platformFeeCents = ceilDiv(grossCents * BigInt(feeBps), 10_000n);
  const valueCents = grossCents - platformFeeCents - bankChargesCents;
  if (valueCents <= 0n) return null;
  // The order keeps one price: the blended one, rounded down (it only describes the figures above).
  const blended = (grossCents * SATS_PER_BTC) / receivedSats;
  return {
    amountSats: receivedSats,
    grossCents,
    platformFeeCents,
    bankFeeCents: bankChargesCents,
    valueCents,
    priceCents: blended > 0n ? blended : 1n,
  };
}

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}
