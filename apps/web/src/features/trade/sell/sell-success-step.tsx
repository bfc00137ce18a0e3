import type { Order } from '@offzero/shared/api/orders';
import { shortenText, SHORTEN } from '@offzero/shared/text/shorten';
import type { Sats } from '@offzero/shared/money/money';
import { useAppConfig } from '../../../lib/app-config';
import { ButtonLink } from '../../../components/ui/button';
import { ExternalLinkIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { DetailList } from '../../../components/ui/detail-list';
import { SuccessHeader } from '../components/success-header';
import { formatExactBtc, formatUsdNumber } from '../../../lib/format';

/** Sell success: the deposit was seen; its transaction links to the block explorer. */
export function SellSuccessStep({
  order,
  txid,
  amountSats,
}: {
  order: Order;
  txid: string;
  amountSats: Sats | null;
}) {
  const { explorerUrl } = useAppConfig();
  // A Lightning payment's reference is its payment hash: final at once, and on no block explorer.
  const byLightning = order.lightning?.paymentHash === txid;
  return (
    <div className="space-y-5">
      <SuccessHeader orderId={order._id} />
      <DetailList
        rows={[
          amountSats !== null && { label: 'Received', value: `${formatExactBtc(amountSats)} BTC` },
          {
            label: byLightning ? 'Payment hash' : 'Transaction id',
            value: byLightning ? (
              <span title={txid} className="font-mono text-xs" data-testid="deposit-txid">
                {shortenText(txid, SHORTEN.address)}
              </span>
            ) : (
              <a
                href={`${explorerUrl}/tx/${txid}`}
                target="_blank"
                rel="noopener noreferrer"
                title={txid}
                className="inline-flex items-center gap-1 font-mono text-xs text-brand-700 underline underline-offset-2"
                data-testid="deposit-txid"
              >
                {shortenText(txid, SHORTEN.address)}
                <ExternalLinkIcon className="size-3.5" />
              </a>
            ),
          },
          { label: 'You Receive', value: formatUsdNumber(order.value), strong: true },
        ]}
      />
      <p className="text-center text-sm text-slate-600">
        {byLightning
          ? 'Paid by Lightning: the payment is final, so your dollars are on their way now.'
          : 'We pay you as soon as the transaction is confirmed on the bitcoin network.'}
      </p>
      <ButtonLink to={paths.orders} variant="secondary" size="lg" fullWidth>
        Go to My Orders
      </ButtonLink>
    </div>
  );
}
