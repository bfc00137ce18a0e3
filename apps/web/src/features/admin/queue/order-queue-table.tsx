import { Link } from 'react-router';
import type { AdminOrder } from '@offzero/shared/api/admin';
import { adminPaths } from '../admin-paths';
import { DataTable, type Column } from '../components/data-table';
import { TypeLabel } from '../components/badges';
import { formatAge, isOverdue, shortOrderId } from '../format';

export function OrderQueueTable<Row extends AdminOrder = AdminOrder>({
  rows,
  since,
  now,
  label,
  extra,
  rowHref = (o) => adminPaths.order(o._id),
}: {
  rows: Row[];
  since: (order: Row) => string | null;
  now: number;
  label: string;
  extra: Column<Row>[];
  /** Where a row leads: the order page unless told otherwise. */
  rowHref?: (order: Row) => string;
}) {
  const columns: Column<Row>[] = [
    {
      key: 'order',
      header: 'Order',
      primary: true,
      cell: (o) => (
        <span className="inline-flex items-center gap-2">
          <Link
            to={adminPaths.order(o._id)}
            className="font-mono text-xs font-semibold text-brand-700 hover:underline"
            aria-label={`Order ${shortOrderId(o._id)}`}
          >
            #{shortOrderId(o._id)}
          </Link>
          <TypeLabel type={o.type} />
        </span>
      ),
    },
    {
      key: 'customer',
      header: 'Customer',
      cell: (o) => (
        <span
          className="block break-all md:max-w-xs md:truncate md:break-normal"
          title={o.customerEmail ?? undefined}
        >
          {o.customerEmail ?? '—'}
        </span>
      ),
    },
    ...extra,
    {
      key: 'age',
      header: 'Waiting',
      primary: true,
      className: 'text-right',
      cell: (o) => (
        <span
          className={`text-xs whitespace-nowrap tabular-nums ${isOverdue(since(o), now) ? 'font-semibold text-red-600' : 'text-slate-600'}`}
        >
          {formatAge(since(o), now)}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(o) => o._id}
      rowHref={rowHref}
      label={label}
      rowTestId="queue-row"
    />
  );
}
