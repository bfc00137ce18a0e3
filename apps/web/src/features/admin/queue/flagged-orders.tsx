import type { AdminOrder } from '@offzero/shared/api/admin';
import { FlagPill, StatusPill } from '../components/badges';
import { OrderQueueTable } from './order-queue-table';
import { createdSince } from './queue-sections';

/** Orders with a flag, its note and the order's status. */
export function FlaggedOrdersTable({ rows, now }: { rows: AdminOrder[]; now: number }) {
  return (
    <OrderQueueTable
      rows={rows}
      since={createdSince}
      now={now}
      label="Flagged orders"
      extra={[
        { key: 'flag', header: 'Flag', cell: (o) => (o.flag ? <FlagPill flag={o.flag} /> : null) },
        { key: 'status', header: 'Status', cell: (o) => <StatusPill status={o.status} /> },
        {
          key: 'note',
          header: 'Note',
          cell: (o) => <span className="line-clamp-2 text-xs text-slate-600">{o.flagNote ?? '—'}</span>,
          className: 'max-w-72',
        },
      ]}
    />
  );
}
