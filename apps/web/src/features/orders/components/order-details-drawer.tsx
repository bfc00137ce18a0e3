import type { ReactNode } from 'react';
import type { Order } from '@offzero/shared/api/orders';
import { railArrival, railLabel } from '@offzero/shared/rails/rails';
import {
  lightningDestinationKind,
  PAYOUT_DESTINATION_LABELS,
} from '@offzero/shared/bitcoin/payout-destination';
import { shortenText, SHORTEN } from '@offzero/shared/text/shorten';
import { useAppConfig } from '../../../lib/app-config';
import { CopyButton } from '../../../components/ui/copy-button';
import { Drawer } from '../../../components/ui/drawer';
import { AlertIcon, ExternalLinkIcon } from '../../../components/ui/icons';
import { DetailList, type DetailRow } from '../../../components/ui/detail-list';
import { receivingRows } from '../../../components/orders/receiving-details';
import { formatDateTime, formatOrderBtc, formatUsdNumber, orderNumber } from '../../../lib/format';
import { useArrivalTiming } from '../api/get-arrival-timing';
import { CancelOrderButton } from './cancel-order-dialog';
import { ScamCancelButton } from './scam-cancel-button';
import { OrderStatusBadge, OrderTypeLabel } from './order-badges';
import { OrderTimeline } from './order-timeline';
import { ReceiptButton } from './receipt-button';
import { LightningPayoutSection } from './lightning-payout-section';

/** Every detail of one order (My Orders): opened by clicking its row. */
export function OrderDetailsDrawer({ order, onClose }: { order: Order | null; onClose: () => void }) {
  return (
    <Drawer
      open={order !== null}
      onClose={onClose}
      title={order ? `Order #${orderNumber(order._id)}` : ''}
      description={order ? formatDateTime(order.createdAt) : undefined}
    >
      {order && <OrderDetails order={order} />}
    </Drawer>
  );
}

function Mono({ children }: { children: ReactNode }) {
  return <span className="font-mono text-xs break-all">{children}</span>;
}

function ExplorerLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-start gap-1 text-left text-brand-700 underline underline-offset-2 hover:text-brand-800"
    >
      <Mono>{children}</Mono>
      <ExternalLinkIcon className="mt-0.5 size-3.5 shrink-0" />
    </a>
  );
}

function OrderDetails({ order }: { order: Order }) {
  const { explorerUrl } = useAppConfig();
  const isBuy = order.type === 'buy';
  const address =
    typeof order.walletAddress === 'string' ? order.walletAddress : (order.walletAddress?.address ?? null);
  const method = order.payment?.method ?? null;
  const arrival = useArrivalTiming(method !== null).data;

  const summary: DetailRow[] = [
    {
      label: 'Order id',
      value: (
        <span className="inline-flex items-center gap-1.5">
          <Mono>{order._id}</Mono>
          <CopyButton text={order._id} label="Copy order id" size="sm" />
        </span>
      ),
    },
    { label: 'Type', value: <OrderTypeLabel type={order.type} origin={order.origin} /> },
    { label: 'Status', value: <OrderStatusBadge status={order.status} /> },
    { label: 'Pair', value: order.pair },
    { label: 'Created', value: formatDateTime(order.createdAt) },
  ];

  const figures: (DetailRow | false)[] = [
    { label: 'Amount', value: `${formatOrderBtc(order)} BTC`, strong: true },
    { label: 'Price', value: formatUsdNumber(order.price) },
    { label: 'Platform fee', value: formatUsdNumber(order.platformFee) },
    isBuy
      ? { label: 'Network fee', value: formatUsdNumber(order.networkFee) }
      : { label: 'Bank fee', value: formatUsdNumber(order.bankFee) },
    {
      label: isBuy ? 'Value (you pay)' : 'Value (you receive)',
      value: formatUsdNumber(order.value),
      strong: true,
    },
  ];

  const chain = chainRows(order, address, method, explorerUrl);

  return (
    <div className="space-y-5" data-testid="order-details">
      <OrderNotices order={order} />
      <Section title="Order">
        <DetailList rows={summary} />
      </Section>
      <Section title="Timeline">
        <OrderTimeline order={order} />
      </Section>
      <Section title="Figures">
        <DetailList rows={figures} />
      </Section>
      <Section title="Bitcoin">
        <DetailList rows={chain} />
      </Section>
      {order.lightningPayout && (
        <Section title="Lightning payout">
          <LightningPayoutSection order={order} payout={order.lightningPayout} />
        </Section>
      )}
      {method && (
        <Section title={isBuy ? 'Payment' : 'Payout'}>
          <DetailList
            rows={[
              { label: 'Method', value: railLabel(method) },
              // When the bitcoin (a buy) or the dollars (a sell) arrive by this method.
              arrival ? { label: 'Arrives', value: railArrival(arrival, method) } : false,
              order.payment?.create_time
                ? { label: 'Submitted', value: formatDateTime(order.payment.create_time) }
                : false,
              ...(method === 'paypal'
                ? []
                : receivingRows(method, order.payment?.receiving_in, isBuy ? order._id : null)),
            ]}
          />
        </Section>
      )}
      <div className="flex flex-wrap justify-end gap-3 border-t border-slate-100 pt-4">
        <ReceiptButton orderId={order._id} />
        {order.status === 'pending' && <CancelOrderButton order={order} />}
        {order.scamCancel && <ScamCancelButton order={order} />}
      </div>
    </div>
  );
}

/** The bitcoin side: the address (or Lightning destination), confirmations, the transaction, the bank's reference. */
function chainRows(
  order: Order,
  address: string | null,
  method: string | null,
  explorerUrl: string,
): (DetailRow | false)[] {
  const isBuy = order.type === 'buy';
  // A Lightning destination or payment is on no block explorer: its reference is the payment hash.
  const lightningKind = isBuy && address !== null ? lightningDestinationKind(address) : null;
  const txnIsPaymentHash =
    order.txn !== null &&
    (order.txn === order.lightning?.paymentHash || order.txn === order.lightningPayout?.paymentHash);
  return [
    address !== null && {
      label: lightningKind
        ? PAYOUT_DESTINATION_LABELS[lightningKind]
        : isBuy
          ? 'Bitcoin address'
          : 'Deposit address',
      value: lightningKind ? (
        <span className="inline-flex items-center gap-1.5" title={address}>
          <Mono>{lightningKind === 'invoice' ? shortenText(address, SHORTEN.address) : address}</Mono>
          <CopyButton text={address} label="Copy Lightning destination" size="sm" />
        </span>
      ) : (
        <ExplorerLink href={`${explorerUrl}/address/${address}`}>{address}</ExplorerLink>
      ),
    },
    // A sell paid by Lightning: the invoice offered beside the address.
    !isBuy &&
      order.lightning !== undefined && {
        label: 'Lightning invoice',
        value: (
          <span className="inline-flex items-center gap-1.5" title={order.lightning.invoice}>
            <Mono>{shortenText(order.lightning.invoice, SHORTEN.address)}</Mono>
            <CopyButton text={order.lightning.invoice} label="Copy Lightning invoice" size="sm" />
          </span>
        ),
      },
    !isBuy && {
      label: 'Confirmations',
      value: <span data-testid="order-confirmations">{order.confirmations}</span>,
    },
    {
      label: txnIsPaymentHash ? 'Payment hash (txn)' : 'Transaction (txn)',
      value: txnIsPaymentHash ? (
        <Mono>{order.txn}</Mono>
      ) : order.txn ? (
        <ExplorerLink href={`${explorerUrl}/tx/${order.txn}`}>{order.txn}</ExplorerLink>
      ) : (
        '—'
      ),
    },
    {
      label: method === 'paypal' ? 'PayPal transaction id' : 'Bank Tx Ref No.',
      value: order.bankTxn ? <Mono>{order.bankTxn}</Mono> : '—',
    },
  ];
}

/** What to know first: the order is under review, its payout waits, or why it was cancelled. */
function OrderNotices({ order }: { order: Order }) {
  return (
    <>
      {order.flag && (
        <p className="flex gap-2 rounded-2xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200">
          <AlertIcon className="size-5 shrink-0 text-amber-600" />
          <span>
            <span className="font-semibold">Under review. </span>
            Our team is checking this order; the timeline below says why.
          </span>
        </p>
      )}
      {order.payoutHold && (
        <p
          data-testid="order-payout-hold"
          className="flex gap-2 rounded-2xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200"
        >
          <AlertIcon className="size-5 shrink-0 text-amber-600" />
          <span>
            <span className="font-semibold">Payout waiting: </span>
            {order.payoutHold}
          </span>
        </p>
      )}
      {order.status === 'cancelled' && order.cancelReason && (
        <p
          data-testid="order-cancel-reason"
          className="rounded-2xl bg-slate-50 p-3 text-sm break-words whitespace-pre-line text-slate-700 ring-1 ring-slate-200"
        >
          <span className="font-semibold">Cancelled: </span>
          {order.cancelReason}
        </p>
      )}
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section>
      <h3 className="mb-2 text-xs font-semibold tracking-wider text-slate-600 uppercase">{title}</h3>
      {children}
    </section>
  );
}
