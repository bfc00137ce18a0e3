import type { AdminOrder } from '@offzero/shared/api/admin';
import { methodLabel, usd } from '../format';
import { OrderQueueTable } from './order-queue-table';
import { paymentsSince } from './queue-sections';

/** Buys whose customer says they paid: the amount, the method and the bank reference to look for. */
export function PaymentsToCheckTable({ rows, now }: { rows: AdminOrder[]; now: number }) {
  return (
    <OrderQueueTable
      rows={rows}
      since={paymentsSince}
      now={now}
      label="Payments to check"
      extra={[
        {
          key: 'value',
          header: 'Paid',
          cell: (o) => <span className="font-semibold tabular-nums">{usd(o.value)}</span>,
          className: 'text-right',
        },
        { key: 'method', header: 'Method', cell: (o) => methodLabel(o.payment?.method) },
        {
          key: 'ref',
          header: 'Bank ref.',
          cell: (o) =>
            o.bankTxn ? (
              <span className="font-mono text-xs">{o.bankTxn}</span>
            ) : (
              <span className="text-slate-500">none yet</span>
            ),
        },
      ]}
    />
  );
}
