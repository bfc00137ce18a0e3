import type { AdminOrder } from '@offzero/shared/api/admin';
import { methodLabel, usd } from '../format';
import { OrderQueueTable } from './order-queue-table';
import { createdSince } from './queue-sections';

/** Sells whose deposit confirmed: the dollars to pay out and how. */
export function SellPayoutsDueTable({ rows, now }: { rows: AdminOrder[]; now: number }) {
  return (
    <OrderQueueTable
      rows={rows}
      since={createdSince}
      now={now}
      label="Sell payouts due"
      extra={[
        {
          key: 'value',
          header: 'Pay out',
          cell: (o) => <span className="font-semibold tabular-nums">{usd(o.value)}</span>,
          className: 'text-right',
        },
        { key: 'method', header: 'Method', cell: (o) => methodLabel(o.payment?.method) },
        {
          key: 'conf',
          header: 'Conf.',
          cell: (o) => <span className="tabular-nums">{o.confirmations}</span>,
          className: 'text-right',
        },
      ]}
    />
  );
}
