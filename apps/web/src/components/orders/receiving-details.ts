import type { Order } from '@offzero/shared/api/orders';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import { findRail, type SellPayoutRail } from '@offzero/shared/rails/rails';
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

/**
 * Where a seller is paid (sell confirmation): the customer's own Zelle e-mail, or their
 * bank account with the routing number (ACH) or SWIFT code (wire).
 */
export function payoutRows(method: SellPayoutRail, settings: UserSettings | null): DetailRow[] {
  if (method === 'zelle') return [{ label: 'Zelle email', value: settings?.zelleEmail || '—' }];
  const bank = settings?.bankAccount;
  return [
    { label: 'Account holder', value: bank?.account_name || '—' },
    { label: 'Account number', value: bank?.account_number || '—' },
    { label: 'Bank name', value: bank?.bank_name || '—' },
    { label: 'Bank address', value: bank?.address || '—' },
    method === 'ach'
      ? { label: 'Routing number', value: bank?.routing_number || '—' }
      : { label: 'SWIFT code', value: bank?.swift || '—' },
  ];
}
