import type { ReactNode } from 'react';
import type { Order } from '@offzero/shared/api/orders';
import { railArrival, railLabel } from '@offzero/shared/rails/rails';
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

  const chain: (DetailRow | false)[] = [
    address !== null && {
      label: isBuy ? 'Bitcoin address' : 'Deposit address',
      value: <ExplorerLink href={`${explorerUrl}/address/${address}`}>{address}</ExplorerLink>,
    },
    !isBuy && {
      label: 'Confirmations',
      value: <span data-testid="order-confirmations">{order.confirmations}</span>,
    },
    {
      label: 'Transaction (txn)',
      value: order.txn ? (
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
