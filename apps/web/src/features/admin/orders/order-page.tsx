import { useParams } from 'react-router';
import type { OrderDetail } from '@offzero/shared/api/admin';
import { errorMessage } from '../../../lib/api-client';
import { ButtonLink } from '../../../components/ui/button';
import { ArrowLeftIcon, AlertIcon } from '../../../components/ui/icons';
import { PageLoadError, PageSkeleton } from '../../../components/ui/page';
import { useAdminOrder } from '../api/get-order';
import { adminPaths } from '../admin-paths';
import { AdminPageHeader, IdWithCopy } from '../components/blocks';
import { FlagPill, StatusPill, TypeLabel } from '../components/badges';
import { formatDateTime, shortOrderId } from '../format';
import { flagLabel } from './order-actions';
import { OrderActionsPanel } from './order-actions-panel';
import { ChainPanel } from './order-chain-panel';
import { CustomerPanel } from './order-customer-panel';
import { PaymentPanel } from './order-payment-panel';
import { PayoutsPanel } from './order-payouts-panel';
import { SummaryPanel } from './order-summary-panel';
import { TimelinePanel } from './order-timeline-panel';
import { PayoutDestinationNote } from './payout-destination-note';

/** One order in full: figures, customer, payment, chain, every state change, and its actions. */
export default function OrderPage() {
  const { orderId = '' } = useParams();
  const detail = useAdminOrder(orderId);

  return (
    <div className="space-y-5">
      <title>{`Order #${shortOrderId(orderId)} — OffZero back office`}</title>
      <ButtonLink to={adminPaths.orders} variant="ghost" size="sm" className="-ml-3">
        <ArrowLeftIcon className="size-4" />
        All orders
      </ButtonLink>
      {detail.isPending ? (
        <PageSkeleton blocks={3} />
      ) : detail.isError ? (
        <PageLoadError message={errorMessage(detail.error)} onRetry={() => void detail.refetch()} />
      ) : (
        <OrderView detail={detail.data} />
      )}
    </div>
  );
}

function OrderView({ detail }: { detail: OrderDetail }) {
  const { order, customer, confirmationsRequired } = detail;
  return (
    <>
      <AdminPageHeader
        title={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
            Order #{shortOrderId(order._id)}
            <span className="flex flex-wrap items-center gap-1.5 text-base font-normal">
              <TypeLabel type={order.type} />
              <StatusPill status={order.status} />
              {order.flag && <FlagPill flag={order.flag} note={order.flagNote} />}
            </span>
          </span>
        }
        description={
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            Created {formatDateTime(order.createdAt)} ·
            <IdWithCopy value={order._id} label="Copy order id" />
          </span>
        }
      />

      {order.flag && (
        <div
          role="note"
          className="flex items-start gap-3 rounded-2xl bg-red-50 p-4 text-sm text-red-800 ring-1 ring-red-600/15"
        >
          <AlertIcon className="mt-0.5 size-5 shrink-0" />
          <div className="min-w-0">
            <p className="font-semibold">Flagged: {flagLabel(order.flag)}</p>
            {order.flagNote && <p className="mt-0.5 break-words">{order.flagNote}</p>}
          </div>
        </div>
      )}
      {detail.payoutDestination && <PayoutDestinationNote destination={detail.payoutDestination} />}
      {!order.flag && order.flagNote && (
        <p className="rounded-2xl bg-slate-50 p-3 text-sm text-slate-600 ring-1 ring-slate-200">
          Earlier flag: {order.flagNote}
        </p>
      )}

      <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="order-2 min-w-0 space-y-5 lg:order-1">
          <SummaryPanel order={order} />
          <PaymentPanel order={order} />
          <PayoutsPanel payouts={detail.payouts ?? []} />
          <ChainPanel
            order={order}
            deposits={detail.deposits}
            confirmationsRequired={confirmationsRequired}
          />
          <TimelinePanel detail={detail} />
        </div>
        <div className="order-1 min-w-0 space-y-5 lg:order-2">
          <div className="space-y-5 lg:sticky lg:top-20">
            <OrderActionsPanel order={order} offers={detail.actions} />
            <CustomerPanel customer={customer} />
          </div>
        </div>
      </div>
    </>
  );
}
