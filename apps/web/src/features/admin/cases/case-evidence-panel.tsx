import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import type { CaseDetail } from '@offzero/shared/api/cases';
import { adminPaths } from '../admin-paths';
import { Details, EmptyState, Panel } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { TypeLabel } from '../components/badges';
import { formatDateTime, shortOrderId, usd } from '../format';

interface EvidenceOrder {
  orderId: string;
  type: 'buy' | 'sell';
  valueUsd: number;
  createdAt: string;
}

const evidenceOrderSchema = z.object({
  orderId: z.string(),
  type: z.enum(['buy', 'sell']),
  valueUsd: z.number(),
  createdAt: z.string(),
});

const ORDER_COLUMNS: Column<EvidenceOrder>[] = [
  {
    key: 'order',
    header: 'Order',
    primary: true,
    cell: (o) => (
      <span className="inline-flex items-center gap-2">
        <Link
          to={adminPaths.order(o.orderId)}
          className="font-mono text-xs font-semibold text-brand-700 hover:underline"
        >
          #{shortOrderId(o.orderId)}
        </Link>
        <TypeLabel type={o.type} />
      </span>
    ),
  },
  {
    key: 'value',
    header: 'Value',
    className: 'text-right',
    cell: (o) => <span className="font-semibold tabular-nums">{usd(o.valueUsd)}</span>,
  },
  {
    key: 'at',
    header: 'Placed',
    className: 'text-right',
    cell: (o) => (
      <span className="text-xs whitespace-nowrap text-slate-600">{formatDateTime(o.createdAt)}</span>
    ),
  },
];

/** The values that matched, in words; the orders as a table linking to each. */
export function EvidencePanel({ monitoringCase: c }: { monitoringCase: CaseDetail }) {
  const evidence = c.evidence;
  const orders = z.array(evidenceOrderSchema).safeParse(evidence.orders).data ?? [];
  const others = z
    .array(z.object({ userId: z.string(), orderId: z.string(), createdAt: z.string() }))
    .safeParse(evidence.otherCustomers).data;
  const text = (key: string) => (typeof evidence[key] === 'string' ? evidence[key] : null);
  const rows: [string, ReactNode][] = [
    ['Found', text('description')],
    ['Holder name', text('holderName')],
    ['Verified name', text('kycName')],
    [
      'Account',
      text('accountNumber') ? (
        <span key="a" className="font-mono">
          {text('accountNumber')}
        </span>
      ) : null,
    ],
    [
      text('kind') === 'bank_account' ? 'Bank account' : 'Address',
      text('destination') ? (
        <span key="d" className="font-mono break-all">
          {text('destination')}
        </span>
      ) : null,
    ],
    ['Identity approved', text('kycApprovedAt') ? formatDateTime(text('kycApprovedAt')) : null],
    ['Flag note', text('flagNote')],
  ];
  return (
    <Panel title="Evidence" testId="case-evidence" padded={false}>
      <div className="px-4 py-4 sm:px-5">
        <Details rows={rows.filter(([, value]) => value !== null && value !== undefined)} />
      </div>
      {orders.length > 0 && (
        <div className="border-t border-slate-100">
          <DataTable
            columns={ORDER_COLUMNS}
            rows={orders}
            rowKey={(o) => o.orderId}
            label="Orders in the case"
          />
        </div>
      )}
      {others && others.length > 0 && (
        <div className="border-t border-slate-100 px-4 py-3 text-sm sm:px-5">
          <p className="font-medium text-ink-900">Also used by</p>
          <ul className="mt-1 space-y-1">
            {others.map((other) => (
              <li key={other.orderId} className="flex flex-wrap gap-x-2">
                <Link
                  to={adminPaths.customer(other.userId)}
                  className="font-mono text-xs text-brand-700 hover:underline"
                >
                  customer {other.userId.slice(0, 8)}
                </Link>
                <Link
                  to={adminPaths.order(other.orderId)}
                  className="font-mono text-xs text-brand-700 hover:underline"
                >
                  order #{shortOrderId(other.orderId)}
                </Link>
                <span className="text-xs text-slate-500">{formatDateTime(other.createdAt)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {orders.length === 0 && !others && Object.keys(evidence).length === 0 && (
        <EmptyState title="No evidence recorded." />
      )}
    </Panel>
  );
}
