import type { OrderDetail } from '@offzero/shared/api/admin';
import { AlertIcon } from '../../../components/ui/icons';

/**
 * Where a buy's bitcoin goes (the customer's address-book entry) and, while it may not go yet, why:
 * the address is unconfirmed, in its cooldown, removed, or needs an ownership proof.
 */
export function PayoutDestinationNote({
  destination,
}: {
  destination: NonNullable<OrderDetail['payoutDestination']>;
}) {
  const { entry } = destination;
  return (
    <div
      role="note"
      data-testid="order-payout-destination"
      data-due={destination.due}
      className={`flex items-start gap-3 rounded-2xl p-4 text-sm ring-1 ${
        destination.due
          ? 'bg-slate-50 text-slate-700 ring-slate-200'
          : 'bg-amber-50 text-amber-900 ring-amber-600/20'
      }`}
    >
      {!destination.due && <AlertIcon className="mt-0.5 size-5 shrink-0" />}
      <div className="min-w-0">
        <p className="font-semibold">
          {destination.due ? 'Payout address ready' : 'Payout waiting for the address'}
          {entry && (
            <span className="font-normal">
              {' '}
              · {entry.label} ({entry.kind === 'xpub' ? 'xpub' : 'address'}, {entry.status}
              {entry.proven ? ', proven' : ''})
            </span>
          )}
        </p>
        {destination.address && <p className="mt-0.5 font-mono break-all">{destination.address}</p>}
        {destination.message && <p className="mt-0.5 break-words">{destination.message}</p>}
      </div>
    </div>
  );
}
