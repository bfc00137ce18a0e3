import type { Order } from '@offzero/shared/api/orders';
import { railLabel } from '@offzero/shared/rails/rails';
import { ButtonLink } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { BankReferenceForm } from '../components/bank-reference-form';
import { DetailList } from '../../../components/ui/detail-list';
import { receivingRows } from '../../../components/orders/receiving-details';
import { SuccessHeader } from '../components/success-header';
import { formatUsdNumber } from '../../../lib/format';

/**
 * Buy success: the PayPal transaction id, or the details to pay into with the bank
 * reference input; then a link to My Orders. When the bitcoin waits for the customer (an address to
 * confirm from the e-mailed link...), the server's words say so first.
 */
export function BuySuccessStep({ order }: { order: Order }) {
  const method = order.payment?.method ?? null;
  return (
    <div className="space-y-5">
      <SuccessHeader orderId={order._id} />
      {order.payoutHold && (
        <p
          role="status"
          data-testid="payout-wait-note"
          className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          {order.payoutHold}
        </p>
      )}
      {method === 'paypal' ? (
        <DetailList
          rows={[
            { label: 'Paid', value: formatUsdNumber(order.value), strong: true },
            {
              label: 'PayPal transaction id',
              value: <span className="font-mono text-xs break-all">{order.bankTxn ?? '—'}</span>,
            },
          ]}
        />
      ) : method ? (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">
            Send <strong className="font-semibold text-ink-900">{formatUsdNumber(order.value)}</strong> by{' '}
            {railLabel(method)} to:
          </p>
          <DetailList rows={receivingRows(method, order.payment?.receiving_in, order._id)} />
          {order.bankTxn ? (
            <DetailList rows={[{ label: 'Bank Tx Ref No.', value: order.bankTxn }]} />
          ) : (
            <BankReferenceForm orderId={order._id} />
          )}
        </div>
      ) : null}
      <ButtonLink to={paths.orders} variant="secondary" size="lg" fullWidth>
        Go to My Orders
      </ButtonLink>
    </div>
  );
}
