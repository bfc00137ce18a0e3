import {
  formatUsd,
  mulDivCeil,
  parseBtc,
  parseUsd,
  type Cents,
  type Sats,
} from '@offzero/shared/money/money';
import {
  isAmountInputText,
  isBelowMinimum,
  quoteBuyFromBtc,
  quoteBuyFromUsd,
  quoteSellFromBtc,
  quoteSellFromUsd,
  sellDeadEndMessage,
  smallestSellSats,
  type BuyQuote,
  type SellQuote,
} from '@offzero/shared/quotes/quote';
import { formatBuyBtc, formatExactBtc, formatUsdCents } from '../../../lib/format';

/**
 * The two linked amount fields of the trade widget. The customer types in one of them (the `source`);
 * the other shows the quote computed from it with the shared quote maths, so the figures on screen are
 * the very figures the server recomputes. Nothing here is a float.
 */

export type AmountSource = 'usd' | 'btc';

export interface AmountEntry {
  source: AmountSource;
  text: string;
}

export const EMPTY_ENTRY: AmountEntry = { source: 'usd', text: '' };

/** Decimals a field takes: cents for dollars, and bitcoin to 6 decimals (spec section 9), bought or sold. */
export const MAX_DECIMALS = { usd: 2, buyBtc: 6, sellBtc: 6 } as const;

/** A sale is sent in whole 100 satoshis, so the bitcoin on screen has the 6 decimals of every other amount. */
const SELL_AMOUNT_STEP_SATS = 100n;

/**
 * Whether a field may hold this text (spec section 5): digits with at most one point, empty, or a lone
 * point, and no more decimals than the unit has. Anything else is refused as it is typed.
 */
export function acceptsAmountText(text: string, maxDecimals: number): boolean {
  if (!isAmountInputText(text)) return false;
  const point = text.indexOf('.');
  return point === -1 || text.length - point - 1 <= maxDecimals;
}

/** What became of a typed or pasted amount: the text the field now holds, and a note to show under it. */
export type AmountInput =
  { kind: 'accepted'; text: string; note: string | null } | { kind: 'refused'; message: string };

export const AMOUNT_LETTERS_MESSAGE = 'Enter digits only, with a point for decimals (e.g. 0.0025).';
export const AMOUNT_POINTS_MESSAGE = 'An amount has one decimal point at most.';

/**
 * Reads what the customer typed or pasted into an amount field. Extra decimals are cut off (rounded
 * down, so the amount never grows) and said so, rather than the whole paste being dropped; letters
 * or several points are refused with a message, and the field keeps what it had.
 */
export function readAmountInput(raw: string, maxDecimals: number): AmountInput {
  // A pasted figure often carries spaces around it; a comma is a decimal point in much of the world.
  const text = raw.trim().replace(',', '.');
  if (!isAmountInputText(text)) {
    return {
      kind: 'refused',
      message: /^[0-9.]*$/.test(text) ? AMOUNT_POINTS_MESSAGE : AMOUNT_LETTERS_MESSAGE,
    };
  }
  const point = text.indexOf('.');
  if (point === -1 || text.length - point - 1 <= maxDecimals) return { kind: 'accepted', text, note: null };
  return {
    kind: 'accepted',
    text: text.slice(0, point + 1 + maxDecimals),
    note: `Rounded down to ${maxDecimals} decimals.`,
  };
}

function readCents(text: string): Cents | null {
  try {
    return parseUsd(text);
  } catch {
    return null;
  }
}

function readSats(text: string): Sats | null {
  try {
    return parseBtc(text);
  } catch {
    return null;
  }
}

export interface BuyTerms {
  sellPriceCents: Cents;
  networkFeeSats: Sats;
  feeBps: number;
  minOrderCents: Cents;
}

/** The buy quote for what the customer typed; null while there is nothing to quote or it is below the minimum. */
export function buyQuoteFor(entry: AmountEntry, terms: BuyTerms | null): BuyQuote | null {
  if (!terms) return null;
  const { sellPriceCents, networkFeeSats, feeBps, minOrderCents } = terms;
  if (entry.source === 'usd') {
    const valueCents = readCents(entry.text);
    if (valueCents === null || valueCents === 0n || isBelowMinimum(valueCents, minOrderCents)) return null;
    return quoteBuyFromUsd({ valueCents, sellPriceCents, feeBps, networkFeeSats });
  }
  const amountSats = readSats(entry.text);
  if (amountSats === null || amountSats === 0n) return null;
  const quote = quoteBuyFromBtc({ amountSats, sellPriceCents, feeBps, networkFeeSats });
  return quote && !isBelowMinimum(quote.valueCents, minOrderCents) ? quote : null;
}

export interface SellTerms {
  buyPriceCents: Cents;
  feeBps: number;
  minOrderCents: Cents;
  /** The payout method's charges; zero until a method is chosen. */
  bankChargesCents: Cents;
}

/** The sell quote for what the customer typed; the minimum applies to the dollars they receive. */
export function sellQuoteFor(entry: AmountEntry, terms: SellTerms | null): SellQuote | null {
  if (!terms) return null;
  const { buyPriceCents, feeBps, minOrderCents, bankChargesCents } = terms;
  if (entry.source === 'usd') {
    const valueCents = readCents(entry.text);
    if (valueCents === null || valueCents === 0n || isBelowMinimum(valueCents, minOrderCents)) return null;
    const exact = quoteSellFromUsd({ valueCents, buyPriceCents, feeBps, bankChargesCents });
    if (!exact) return null;
    // Rounded up to whole 100 satoshis: the customer still receives at least the dollars asked for.
    const amountSats = mulDivCeil(exact.amountSats, 1n, SELL_AMOUNT_STEP_SATS) * SELL_AMOUNT_STEP_SATS;
    return quoteSellFromBtc({ amountSats, buyPriceCents, feeBps, bankChargesCents });
  }
  const amountSats = readSats(entry.text);
  if (amountSats === null || amountSats === 0n) return null;
  const quote = quoteSellFromBtc({ amountSats, buyPriceCents, feeBps, bankChargesCents });
  return quote && !isBelowMinimum(quote.valueCents, minOrderCents) ? quote : null;
}

/**
 * Why a sell by `method` cannot go ahead although the customer typed an amount: the platform fee and
 * the method's bank charges would leave nothing to receive (naming the smallest amount that works, the
 * server's own message), or what is left is below the minimum order. Null when the sell is fine or
 * nothing is typed.
 */
export function sellBlockedReason(
  entry: AmountEntry,
  terms: SellTerms | null,
  method: 'zelle' | 'ach' | 'wire',
): string | null {
  if (!terms || sellQuoteFor(entry, terms)) return null;
  const { buyPriceCents, feeBps, minOrderCents, bankChargesCents } = terms;
  const typed = entry.source === 'usd' ? readCents(entry.text) : readSats(entry.text);
  if (typed === null || typed === 0n) return null;
  const leavesSomething =
    entry.source === 'usd' ||
    quoteSellFromBtc({ amountSats: typed, buyPriceCents, feeBps, bankChargesCents });
  if (leavesSomething) return `Minimum order is ${formatUsdCents(minOrderCents)}`;
  const smallest = smallestSellSats({ buyPriceCents, feeBps, bankChargesCents, minOrderCents });
  return smallest === null ? null : sellDeadEndMessage(method, smallest);
}

/**
 * What each field shows: the typed text in the field being typed in, the quote's figure in the other
 * (empty when there is no quote, e.g. below the minimum order).
 */
export function fieldTexts(
  entry: AmountEntry,
  quote: { valueCents: Cents; amountSats: Sats } | null,
  side: 'buy' | 'sell',
): { usd: string; btc: string } {
  const usd = entry.source === 'usd' ? entry.text : quote ? formatUsd(quote.valueCents) : '';
  const btc =
    entry.source === 'btc'
      ? entry.text
      : quote
        ? side === 'buy'
          ? formatBuyBtc(quote.amountSats)
          : formatExactBtc(quote.amountSats)
        : '';
  return { usd, btc };
}
