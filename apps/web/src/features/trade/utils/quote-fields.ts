import {
  formatUsd,
  mulDivCeil,
  MoneyParseError,
  parseTypedBtc,
  parseTypedUsd,
  readTypedAmount,
  type Cents,
  type Sats,
} from '@offzero/shared/money/money';
import {
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
import type { SellPayoutRail } from '@offzero/shared/rails/rails';
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

/** Decimals a field takes: cents for dollars, and bitcoin to 6 decimals, bought or sold. */
export const MAX_DECIMALS = { usd: 2, buyBtc: 6, sellBtc: 6 } as const;

/** A sale is sent in whole 100 satoshis, so the bitcoin on screen has the 6 decimals of every other amount. */
const SELL_AMOUNT_STEP_SATS = 100n;

/** What became of a typed or pasted amount: the text the field now holds, and a note to show under it. */
export type AmountInput =
  { kind: 'accepted'; text: string; note: string | null } | { kind: 'refused'; message: string };

export const AMOUNT_LETTERS_MESSAGE = 'Enter digits only, with a point for decimals (e.g. 0.0025).';
export const AMOUNT_POINTS_MESSAGE = 'An amount has one decimal point at most.';

// What an amount field can hold at all: digits, grouping commas and spaces, points, and for dollars a
// leading sign. How they combine is `readTypedAmount`'s to judge.
const USD_CHARACTERS = /^[0-9., \u00a0\u202f$]*$/;
const BTC_CHARACTERS = /^[0-9., \u00a0\u202f]*$/;

/**
 * Reads what the customer typed or pasted into an amount field. The text is kept as typed ('$1,000.50'):
 * the quote reads it through the shared `readTypedAmount`. Extra decimals are cut off (rounded down, so
 * the amount never grows) and said so, rather than the whole paste being dropped; letters or several
 * points are refused with a message, and the field keeps what it had.
 */
export function readAmountInput(raw: string, maxDecimals: number, currency: AmountSource): AmountInput {
  if (!(currency === 'usd' ? USD_CHARACTERS : BTC_CHARACTERS).test(raw)) {
    return { kind: 'refused', message: AMOUNT_LETTERS_MESSAGE };
  }
  if (raw.split('.').length > 2) return { kind: 'refused', message: AMOUNT_POINTS_MESSAGE };
  const typed = readTypedAmount(raw, currency);
  const point = typed.kind === 'amount' ? typed.text.indexOf('.') : -1;
  if (typed.kind !== 'amount' || point === -1 || typed.text.length - point - 1 <= maxDecimals) {
    return { kind: 'accepted', text: raw, note: null };
  }
  const text = raw.trim();
  return {
    kind: 'accepted',
    text: text.slice(0, text.indexOf('.') + 1 + maxDecimals),
    note: `Rounded down to ${maxDecimals} decimals.`,
  };
}

function readCents(text: string): Cents | null {
  try {
    return parseTypedUsd(text);
  } catch {
    return null;
  }
}

function readSats(text: string): Sats | null {
  try {
    return parseTypedBtc(text);
  } catch {
    return null;
  }
}

/**
 * Why the typed amount gives no quote before any minimum applies: nothing typed, text that does not
 * read as one amount (with the message to show), or more than any order could be (more dollars or
 * bitcoin than the field reads at all). Null when it reads as an amount.
 */
export function entryProblem(
  entry: AmountEntry,
): { kind: 'empty' } | { kind: 'unreadable'; message: string } | { kind: 'too_large' } | null {
  try {
    if (entry.source === 'usd') parseTypedUsd(entry.text);
    else parseTypedBtc(entry.text);
    return null;
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    if (error.reason === 'empty') return { kind: 'empty' };
    if (error.reason === 'too_large') return { kind: 'too_large' };
    return { kind: 'unreadable', message: error.message };
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
  method: SellPayoutRail,
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
