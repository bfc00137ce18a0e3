import type { ReactNode } from 'react';
import type { AdminOrder, Deposit } from '@offzero/shared/api/admin';
import { Details, ExplorerLink, IdWithCopy, Panel } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { Pill } from '../components/badges';
import { btc, btcFromSatsText, formatDateTime } from '../format';

/** The payout (buy) or deposit (sell) transaction, with its copy button and explorer link. */
function transactionRow(order: AdminOrder): [string, ReactNode] {
  return [
    order.type === 'buy' ? 'Payout transaction' : 'Deposit transaction',
    order.txn ? (
      <span key="t" className="inline-flex max-w-full items-center gap-1.5" data-testid="order-txn">
        <IdWithCopy value={order.txn} label="Copy transaction id" />
        <ExplorerLink kind="tx" value={order.txn} label="View the transaction on the block explorer" />
      </span>
    ) : (
      <span className="text-slate-500">none yet</span>
    ),
  ];
}

/** The outputs the deposit watcher saw paying the sell's deposit address. */
const DEPOSIT_COLUMNS: Column<Deposit>[] = [
  {
    key: 'txid',
    header: 'Output',
    primary: true,
    cell: (d) => (
      <span className="inline-flex items-center gap-1.5">
        <span className="font-mono text-xs" title={`${d.txid}:${d.vout}`}>
          {d.txid.slice(0, 10)}…:{d.vout}
        </span>
        <ExplorerLink kind="tx" value={d.txid} label="View the deposit on the block explorer" />
      </span>
    ),
  },
  {
    key: 'amount',
    header: 'Amount',
    className: 'text-right',
    cell: (d) => <span className="whitespace-nowrap tabular-nums">{btc(d.amount)}</span>,
  },
  {
    key: 'conf',
    header: 'Conf.',
    className: 'text-right',
    cell: (d) => <span className="tabular-nums">{d.confirmations}</span>,
  },
  {
    key: 'status',
    header: 'Status',
    primary: true,
    cell: (d) => (
      <Pill tone={d.status === 'vanished' ? 'red' : d.confirmations > 0 ? 'emerald' : 'sky'}>
        {d.status === 'seen' ? (d.confirmations > 0 ? 'confirmed' : 'in mempool') : d.status}
      </Pill>
    ),
  },
  {
    key: 'seen',
    header: 'First seen',
    cell: (d) => (
      <span className="text-xs whitespace-nowrap text-slate-600">{formatDateTime(d.firstSeenAt)}</span>
    ),
  },
];

export function ChainPanel({
  order,
  deposits,
  confirmationsRequired,
}: {
  order: AdminOrder;
  deposits: Deposit[];
  confirmationsRequired: number;
}) {
  const txnRow = transactionRow(order);
  if (order.type === 'buy') {
    const wallet = typeof order.walletAddress === 'string' ? order.walletAddress : null;
    return (
      <Panel title="Chain" testId="order-chain">
        <Details
          rows={[
            [
              'Customer’s wallet',
              wallet ? (
                <span key="w" className="inline-flex max-w-full items-center gap-1.5">
                  <IdWithCopy value={wallet} label="Copy wallet address" />
                  <ExplorerLink kind="address" value={wallet} label="View the wallet on the block explorer" />
                </span>
              ) : (
                '—'
              ),
            ],
            ['Amount to send', btc(order.amount)],
            txnRow,
          ]}
        />
      </Panel>
    );
  }
  const deposit = typeof order.walletAddress === 'object' ? order.walletAddress : null;
  const enough = order.confirmations >= confirmationsRequired;
  return (
    <Panel title="Chain" testId="order-chain" padded={false}>
      <div className="px-4 py-4 sm:px-5">
        <Details
          rows={[
            [
              'Deposit address',
              deposit ? (
                <span key="d" className="inline-flex max-w-full items-center gap-1.5">
                  <IdWithCopy value={deposit.address} label="Copy deposit address" />
                  <ExplorerLink
                    kind="address"
                    value={deposit.address}
                    label="View the deposit address on the block explorer"
                  />
                </span>
              ) : (
                '—'
              ),
            ],
            ['Derivation index', order.depositIndex ?? '—'],
            ['Expected', btc(order.amount)],
            ['Received', btcFromSatsText(order.receivedSats)],
            [
              'Confirmations',
              <span
                key="c"
                data-testid="order-confirmations"
                className={`font-semibold tabular-nums ${enough ? 'text-emerald-700' : 'text-amber-700'}`}
              >
                {order.confirmations} of {confirmationsRequired} required
              </span>,
            ],
            txnRow,
          ]}
        />
      </div>
      <div className="border-t border-slate-100">
        <h3 className="px-4 pt-3 text-xs font-semibold tracking-wide text-slate-500 uppercase sm:px-5">
          Deposits seen
        </h3>
        {deposits.length === 0 ? (
          <p className="px-4 py-3 text-sm text-slate-500 sm:px-5">No deposit seen on chain yet.</p>
        ) : (
          <DataTable
            columns={DEPOSIT_COLUMNS}
            rows={deposits}
            rowKey={(d) => `${d.txid}:${d.vout}`}
            label="Deposits"
          />
        )}
      </div>
    </Panel>
  );
}
