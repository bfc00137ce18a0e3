import { Link } from 'react-router';
import type { AdminOrder } from '@offzero/shared/api/admin';
import { errorMessage } from '../../../lib/api-client';
import { PageLoadError } from '../../../components/ui/page';
import { ORDERS_PAGE_SIZE, type useAdminOrders } from '../api/search-orders';
import { adminPaths } from '../admin-paths';
import { EmptyState, Pagination, TableSkeleton } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { FlagPill, StatusPill, TypeLabel } from '../components/badges';
import { btc, formatDate, formatDateTime, formatTime, methodLabel, shortOrderId, usd } from '../format';

const ORDER_COLUMNS: Column<AdminOrder>[] = [
  {
    key: 'order',
    header: 'Order',
    primary: true,
    cell: (o) => (
      <Link
        to={adminPaths.order(o._id)}
        className="font-mono text-xs font-semibold text-brand-700 hover:underline"
        aria-label={`Order ${shortOrderId(o._id)}`}
      >
        #{shortOrderId(o._id)}
      </Link>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    primary: true,
    cell: (o) => (
      <span className="inline-flex flex-wrap items-center gap-1">
        <StatusPill status={o.status} />
        {o.flag && <FlagPill flag={o.flag} note={o.flagNote} />}
      </span>
    ),
  },
  {
    key: 'created',
    header: 'Created',
    cell: (o) => (
      <span
        className="text-xs leading-tight whitespace-nowrap text-slate-600"
        title={formatDateTime(o.createdAt)}
      >
        <span className="md:block">{formatDate(o.createdAt)}</span>{' '}
        <span className="text-slate-500 md:block">{formatTime(o.createdAt)}</span>
      </span>
    ),
  },
  {
    key: 'customer',
    header: 'Customer',
    cell: (o) => (
      <span
        className="block break-all md:max-w-48 md:truncate md:break-normal"
        title={o.customerEmail ?? undefined}
      >
        {o.customerEmail ?? '—'}
      </span>
    ),
  },
  {
    key: 'type',
    header: 'Type',
    cell: (o) => (
      <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
        <TypeLabel type={o.type} />
        <span className="text-xs text-slate-500">· {methodLabel(o.payment?.method)}</span>
      </span>
    ),
  },
  {
    key: 'amount',
    header: 'Amount',
    className: 'text-right',
    cell: (o) => <span className="whitespace-nowrap tabular-nums">{btc(o.amount)}</span>,
  },
  {
    key: 'value',
    header: 'Value',
    className: 'text-right',
    cell: (o) => <span className="font-semibold whitespace-nowrap tabular-nums">{usd(o.value)}</span>,
  },
];

/** One page of the matching orders, dimmed while the next page loads, with the pager under it. */
export function OrdersResults({
  orders,
  page,
  filtered,
  onPage,
}: {
  orders: ReturnType<typeof useAdminOrders>;
  page: number;
  /** Whether any filter is set: the empty state then suggests fewer filters. */
  filtered: boolean;
  onPage: (page: number) => void;
}) {
  return orders.isError ? (
    <PageLoadError message={errorMessage(orders.error)} onRetry={() => void orders.refetch()} />
  ) : (
    <div
      className={`overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80 transition-opacity ${
        orders.isPlaceholderData ? 'opacity-60' : ''
      }`}
      aria-busy={orders.isFetching || undefined}
      data-testid="admin-orders-results"
    >
      {orders.isPending ? (
        <TableSkeleton rows={8} label="Loading orders" />
      ) : orders.data.orders.length === 0 ? (
        <EmptyState title="No orders match these filters.">
          {filtered ? 'Try fewer filters, or reset them.' : 'Orders appear here as customers place them.'}
        </EmptyState>
      ) : (
        <>
          <DataTable
            columns={ORDER_COLUMNS}
            rows={orders.data.orders}
            rowKey={(o) => o._id}
            rowHref={(o) => adminPaths.order(o._id)}
            label="Orders"
            testId="orders-table"
            rowTestId="admin-order-row"
          />
          <Pagination
            page={page}
            pageSize={ORDERS_PAGE_SIZE}
            total={orders.data.total}
            busy={orders.isFetching}
            onPage={onPage}
          />
        </>
      )}
    </div>
  );
}
