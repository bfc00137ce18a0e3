import type { Order } from '@offzero/shared/api/orders';
import { formatCentsAsCurrency } from '@offzero/shared/currency/format-currency';
import {
  btcNumberToSats,
  formatBtc,
  usdNumberToCents,
  type Cents,
  type Sats,
} from '@offzero/shared/money/money';

// How the trading screens write money. Amounts are integers (cents, satoshis) until this point.

/** '$1,234.50'. Orders are priced in US dollars only, whatever currency the customer prefers. */
export function formatUsdCents(cents: Cents): string {
  return formatCentsAsCurrency(cents, 'USD');
}

/** Bought bitcoin, to 6 decimals: '0.002564'. */
export function formatBuyBtc(sats: Sats): string {
  return formatBtc(sats, CUSTOMER_BTC_DECIMALS);
}

/** Customer screens write bitcoin to 6 decimals, so figures line up in lists and match what is typed. */
export const CUSTOMER_BTC_DECIMALS = 6;

/**
 * Bitcoin a customer must send, exactly: 6 decimals like every other amount ('0.002500', '1.000000'),
 * and all 8 only when the last two satoshi digits are needed ('0.00012345'). Never rounded: a
 * deposit short by a satoshi is an under-payment.
 */
export function formatExactBtc(sats: Sats): string {
  const full = formatBtc(sats, 8);
  return full.endsWith('00') ? full.slice(0, -2) : full;
}

/** A JSON amount of an order as satoshis, or null if it is not a valid amount. */
export function satsOf(btc: number): Sats | null {
  try {
    return btcNumberToSats(btc);
  } catch {
    return null;
  }
}

/** A JSON dollar figure as cents, or null if it is not a valid amount. */
export function centsOf(usd: number): Cents | null {
  try {
    return usdNumberToCents(usd);
  } catch {
    return null;
  }
}

/** '$250.00' for a JSON dollar figure; an unreadable one shows as a dash rather than a wrong figure. */
export function formatUsdNumber(usd: number): string {
  const cents = centsOf(usd);
  return cents === null ? '—' : formatUsdCents(cents);
}

/** The order's bitcoin: 6 decimals for a buy (what is delivered), every satoshi for a sell. */
export function formatOrderBtc(order: Pick<Order, 'type' | 'amount'>): string {
  const sats = satsOf(order.amount);
  if (sats === null) return '—';
  return order.type === 'buy' ? formatBuyBtc(sats) : formatExactBtc(sats);
}

/** The order number customers see: the first 8 characters of its id, as in the server's messages. */
export function orderNumber(id: string): string {
  return id.slice(0, 8);
}

/** 'Nov 21, 2026, 9:41 AM' in the browser's time zone. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? '—'
    : date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}
