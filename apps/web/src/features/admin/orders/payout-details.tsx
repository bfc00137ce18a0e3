import type { AdminOrder } from '@offzero/shared/api/admin';
import { methodLabel } from '../format';

/** Where a sell's dollars go: the customer's own details, as saved with the order. */
export function PayoutDetails({ order }: { order: AdminOrder }) {
  const details = order.payment?.receiving_in ?? {};
  const lines = Object.entries(details).filter(([, value]) => typeof value === 'string' && value !== '');
  return (
    <span className="block">
      Pay to ({methodLabel(order.payment?.method)}):{' '}
      {lines.length === 0 ? (
        'no details on the order'
      ) : (
        <span className="mt-1 block space-y-0.5 font-mono text-xs">
          {lines.map(([key, value]) => (
            <span key={key} className="block break-all">
              {RECEIVING_LABEL[key] ?? key}: {value}
            </span>
          ))}
        </span>
      )}
    </span>
  );
}

export const RECEIVING_LABEL: Record<string, string> = {
  account_holder: 'Account holder',
  account_name: 'Account holder',
  account_number: 'Account number',
  bank_address: 'Bank address',
  address: 'Bank address',
  routing_number: 'Routing number',
  swift: 'SWIFT',
  payment_address: 'Zelle',
  bank_name: 'Bank',
};
