import { Link } from 'react-router';
import type { Order } from '@offzero/shared/api/orders';
import { adminPaths } from '../admin-paths';
import { EmptyState, Panel } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { FlagPill, StatusPill, TypeLabel } from '../components/badges';
import { btc, formatDateTime, methodLabel, shortOrderId, usd } from '../format';

const ORDER_COLUMNS: Column<Order>[] = [
  {
    key: 'order',
    header: 'Order',
    primary: true,
    cell: (o) => (
      <Link
        to={adminPaths.order(o._id)}
        className="font-mono text-xs font-semibold text-brand-700 hover:underline"
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
      <span className="inline-flex flex-wrap gap-1">
        <StatusPill status={o.status} />
        {o.flag && <FlagPill flag={o.flag} />}
      </span>
    ),
  },
  {
    key: 'created',
    header: 'Created',
    cell: (o) => <span className="text-xs text-slate-600">{formatDateTime(o.createdAt)}</span>,
  },
  { key: 'type', header: 'Type', cell: (o) => <TypeLabel type={o.type} /> },
  { key: 'method', header: 'Method', cell: (o) => methodLabel(o.payment?.method) },
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
    cell: (o) => <span className="font-semibold tabular-nums">{usd(o.value)}</span>,
  },
];

/** Every order of the customer, each leading to its order page. */
export function CustomerOrdersPanel({ orders }: { orders: Order[] }) {
  return (
    <Panel title={`Orders (${orders.length})`} padded={false} testId="customer-orders">
      {orders.length === 0 ? (
        <EmptyState title="No orders yet." />
      ) : (
        <DataTable
          columns={ORDER_COLUMNS}
          rows={orders}
          rowKey={(o) => o._id}
          rowHref={(o) => adminPaths.order(o._id)}
          label="Customer orders"
        />
      )}
    </Panel>
  );
}
