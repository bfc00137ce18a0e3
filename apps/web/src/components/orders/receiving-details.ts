import type { Order } from '@offzero/shared/api/orders';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import {
  findRail,
  SELL_PAYOUTS,
  type PayoutDetailKey,
  type SellPayoutRail,
} from '@offzero/shared/rails/rails';
import { orderNumber } from '../../lib/format';
import type { DetailRow } from '../ui/detail-list';

type ReceivingIn = NonNullable<Order['payment']>['receiving_in'];

function bankLine(...parts: (string | null | undefined)[]): string {
  return parts.filter((part): part is string => Boolean(part?.trim())).join(', ');
}

/**
 * Where a buyer sends a manual payment (buy success): the company's details as the
 * ORDER recorded them when the payment was submitted, never the current settings, which may change.
 */
export function receivingRows(
  method: string,
  receiving: ReceivingIn | undefined,
  /** Adds the memo line that ties the transfer to the order; null for a payout (sell). */
  orderId: string | null,
): (DetailRow | false)[] {
  const r = receiving ?? {};
  const memo: DetailRow | false = orderId !== null && {
    label: 'Memo',
    value: `OffZero order #${orderNumber(orderId)}`,
  };
  const rail = findRail(method);
  if (!rail?.receiving) return [];
  return [
    ...rail.receiving.map(({ label, keys }): DetailRow => {
      const parts = keys.map((key) => r[key]);
      // One field as recorded; a line of several (the bank's name and address) joins those given.
      const value = parts.length === 1 ? parts[0] : bankLine(...parts);
      return { label, value: value || '—' };
    }),
    memo,
  ];
}

/** One of the customer's own details a sell's payout goes to, from their settings. */
export function payoutDetail(settings: UserSettings | null | undefined, key: PayoutDetailKey): string | null {
  if (key === 'zelleEmail') return settings?.zelleEmail ?? null;
  return settings?.bankAccount?.[key] ?? null;
}

/**
 * Where a seller is paid (sell confirmation): the customer's own details the rail pays into, as its
 * registry entry lists them (the Zelle e-mail, or the bank account with its routing number or SWIFT code).
 */
export function payoutRows(method: SellPayoutRail, settings: UserSettings | null): DetailRow[] {
  return SELL_PAYOUTS[method].lines.map(({ label, key }) => ({
    label,
    value: payoutDetail(settings, key) || '—',
  }));
}
