import { formatCurrency } from '@offzero/shared/currency/format-currency';
import { btcNumberToSats, formatBtc } from '@offzero/shared/money/money';
import { railLabel } from '@offzero/shared/rails/rails';

// How the console writes times, ages, money and actors.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long ago `iso` was: '<1 min', '12 min', '3 h', '2 d'. A dash for a missing or bad time. */
export function formatAge(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return '—';
  const elapsed = Math.max(0, now - at);
  if (elapsed < MINUTE) return '<1 min';
  if (elapsed < HOUR) return `${Math.floor(elapsed / MINUTE)} min`;
  if (elapsed < DAY) return `${Math.floor(elapsed / HOUR)} h`;
  return `${Math.floor(elapsed / DAY)} d`;
}

/** Waiting longer than this is shown as overdue in the queue. */
export const OVERDUE_MS = 4 * HOUR;

export function isOverdue(iso: string | null | undefined, now = Date.now()): boolean {
  if (!iso) return false;
  const at = Date.parse(iso);
  return !Number.isNaN(at) && now - at > OVERDUE_MS;
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

const timeOnly = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' });

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : timeOnly.format(date);
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateOnly.format(date);
}

export function usd(amount: number | null | undefined): string {
  return amount === null || amount === undefined ? '—' : formatCurrency(amount);
}

/** '0.00512300 BTC' — all 8 decimals, exact. */
export function btc(amount: number | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  try {
    return `${formatBtc(btcNumberToSats(amount))} BTC`;
  } catch {
    return `${amount} BTC`;
  }
}

/** Satoshis held as a decimal string ('512300') as BTC text. */
export function btcFromSatsText(sats: string | null | undefined): string {
  if (!sats || !/^\d+$/.test(sats)) return '—';
  return `${formatBtc(BigInt(sats))} BTC`;
}

export function methodLabel(method: string | null | undefined): string {
  if (!method) return '—';
  return railLabel(method);
}

/** The short form of an order id used everywhere a customer sees it: its first 8 characters. */
export function shortOrderId(id: string): string {
  return id.slice(0, 8);
}

/**
 * Who made a state change: 'user:<id>' is the customer, 'admin:<id>' a member of staff,
 * 'system:<job>' one of the server's jobs.
 */
export function describeActor(
  actor: string,
  customerId?: string,
): { kind: 'customer' | 'admin' | 'system' | 'other'; label: string } {
  const [kind, ...rest] = actor.split(':');
  const id = rest.join(':');
  if (kind === 'user') {
    return {
      kind: 'customer',
      label: customerId && id === customerId ? 'Customer' : `Customer ${id.slice(0, 8)}`,
    };
  }
  if (kind === 'admin') return { kind: 'admin', label: `Admin ${id.slice(0, 8)}` };
  if (kind === 'system') return { kind: 'system', label: `System · ${id.replace(/[-_]/g, ' ')}` };
  return { kind: 'other', label: actor };
}
