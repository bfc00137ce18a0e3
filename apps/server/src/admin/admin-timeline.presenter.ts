import { ORDER_FLAG_LABEL, type TimelineEntry } from '@offzero/shared/api/admin';
import { inWords } from '@offzero/shared/api/orders';
import { formatCurrency } from '@offzero/shared/currency/format-currency';
import { centsToUsdNumber, formatBtc } from '@offzero/shared/money/money';
import type { OrderEventRow } from './admin-orders.repository';

/**
 * An order's history as staff read it: each step named in words (a move between two states, or what
 * happened without one), its details labelled, amounts as BTC and USD rather than satoshis and cents.
 */

/** Steps that change no state, by the `event` their details carry. */
const EVENT_TITLE: Record<string, string> = {
  requoted: 'Re-priced',
  payout_started: 'Bitcoin payout started',
  payout_fee_bumped: 'Bitcoin payout re-sent with a higher network fee',
  payment_reversed: 'PayPal payment reversed',
  flag_cleared: 'Flag cleared',
};

const RESOLUTION_WORDS: Record<string, string> = {
  reviewed: 'checked and released',
  refunded: 'bitcoin returned to the customer',
};

/** Labels of the detail keys; anything else is written as words from its key. */
const FACT_LABEL: Record<string, string> = {
  txid: 'Transaction',
  previousTxid: 'Replaced transaction',
  address: 'Address',
  reference: 'Reference',
  heldSats: 'Bitcoin held',
  valueSats: 'Amount',
  amountSats: 'Amount',
  receivedSats: 'Received',
  payoutId: 'Payout',
  batchId: 'Payout batch',
  why: 'Why',
  resolution: 'Outcome',
  note: 'Note',
  paypalOrderId: 'PayPal order',
  captureId: 'PayPal capture',
  vanished: 'Vanished transaction',
};

/** Keys written into another fact or into the title. */
const FOLDED_KEYS = new Set(['event', 'vout', 'flag', 'repriced', 'before', 'after']);

const btcText = (sats: string) => `${formatBtc(BigInt(sats))} BTC`;
const usdText = (cents: string) => formatCurrency(centsToUsdNumber(BigInt(cents)));
const isDigits = (value: unknown): value is string => typeof value === 'string' && /^-?\d+$/.test(value);
const flagWords = (flag: string | null) => (flag ? inWords(flag, ORDER_FLAG_LABEL) : 'none');

/** A stored set of quote figures (integer text) as '0.00123400 BTC for $100.00 at $81,000.00 / BTC'. */
function figuresText(stored: unknown): string | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { amountSats, valueCents, priceCents } = stored as Record<string, unknown>;
  if (!isDigits(amountSats) || !isDigits(valueCents) || !isDigits(priceCents)) return null;
  return `${btcText(amountSats)} for ${usdText(valueCents)} at ${usdText(priceCents)} / BTC`;
}

function factValue(key: string, value: unknown, details: Record<string, unknown>): string {
  if ((key.endsWith('Sats') || key === 'amount') && isDigits(value)) return btcText(value);
  if (key.endsWith('Cents') && isDigits(value)) return usdText(value);
  if (key === 'txid' && typeof value === 'string' && typeof details.vout === 'number') {
    return `${value}:${details.vout}`;
  }
  if (key === 'why' && typeof value === 'string') return inWords(value, ORDER_FLAG_LABEL);
  if (key === 'resolution' && typeof value === 'string') return RESOLUTION_WORDS[value] ?? inWords(value);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** 'feeSats' or 'payout_id' as 'Fee' / 'Payout id': the unit is in the value. */
const keyInWords = (key: string) =>
  inWords(key.replace(/(Sats|Cents)$/, '').replace(/([a-z])([A-Z])/g, '$1_$2'));

function factsOf(details: Record<string, unknown>): TimelineEntry['facts'] {
  const facts: TimelineEntry['facts'] = [];
  const flag = details.flag as { from?: unknown; to?: unknown } | undefined;
  if (typeof flag === 'object' && flag !== null) {
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    facts.push({ label: 'Flag', value: `${flagWords(text(flag.from))} → ${flagWords(text(flag.to))}` });
  }
  const change =
    details.event === 'requoted'
      ? { before: details.before, after: details.after }
      : (details.repriced as { before?: unknown; after?: unknown } | undefined);
  if (change) {
    const before = figuresText(change.before);
    const after = figuresText(change.after);
    if (before && after)
      facts.push({ label: 'Price before', value: before }, { label: 'Price after', value: after });
  }
  for (const [key, value] of Object.entries(details)) {
    if (FOLDED_KEYS.has(key) || value === null || value === undefined) continue;
    facts.push({ label: FACT_LABEL[key] ?? keyInWords(key), value: factValue(key, value, details) });
  }
  return facts;
}

function titleOf(event: OrderEventRow, details: Record<string, unknown>): string {
  if (event.fromStatus === null) return 'Order placed';
  if (event.fromStatus !== event.toStatus) {
    return `${inWords(event.fromStatus)} → ${inWords(event.toStatus)}`;
  }
  const flag = details.flag as { to?: unknown } | undefined;
  if (details.event === 'flagged' || (details.event === undefined && typeof flag?.to === 'string')) {
    return `Flagged: ${flagWords(typeof flag?.to === 'string' ? flag.to : null)}`;
  }
  const known = typeof details.event === 'string' ? EVENT_TITLE[details.event] : undefined;
  if (known) return known;
  // A step recorded without an event name (a return of coins, a deposit seen): its reason says it.
  return event.reason ? event.reason.charAt(0).toUpperCase() + event.reason.slice(1) : 'Details recorded';
}

/** A flag raised or cleared says all in its title and facts; its stored reason names the flag's code. */
const saysItAll = (details: Record<string, unknown>) =>
  details.event === 'flagged' || details.event === 'flag_cleared';

export function toTimelineEntry(event: OrderEventRow): TimelineEntry {
  const details = event.details ?? {};
  return {
    kind: event.fromStatus === null ? 'created' : event.fromStatus === event.toStatus ? 'event' : 'moved',
    title: titleOf(event, details),
    from: event.fromStatus,
    to: event.toStatus,
    actor: event.actor,
    reason: saysItAll(details) ? null : event.reason,
    facts: factsOf(details),
    at: event.createdAt.toISOString(),
  };
}
