import { Link } from 'react-router';
import type { BitcoinToSend } from '@offzero/shared/api/admin';
import { payoutBatchStatusText } from '@offzero/shared/api/payout-batches';
import { shortenText, SHORTEN } from '@offzero/shared/text/shorten';
import { adminPaths } from '../admin-paths';
import { Pill } from '../components/badges';
import { btc, shortOrderId } from '../format';
import { OrderQueueTable } from './order-queue-table';
import { paidSince } from './queue-sections';

/** Paid buys whose bitcoin is to send, each with the payout batch that holds it, if any. */
export function BitcoinToSendTable({ rows, now }: { rows: BitcoinToSend[]; now: number }) {
  return (
    <OrderQueueTable<BitcoinToSend>
      rows={rows}
      since={paidSince}
      now={now}
      label="Bitcoin to send"
      // A buy a batch holds is handled on the Payouts page, never sent by hand.
      rowHref={(o) => (o.payoutBatch ? adminPaths.payouts : adminPaths.order(o._id))}
      extra={[
        {
          key: 'amount',
          header: 'Send',
          cell: (o) => <span className="font-semibold tabular-nums">{btc(o.amount)}</span>,
          className: 'text-right',
        },
        {
          key: 'wallet',
          header: 'To wallet',
          cell: (o) =>
            typeof o.walletAddress === 'string' ? (
              <span className="font-mono text-xs" title={o.walletAddress}>
                {shortenText(o.walletAddress, SHORTEN.address)}
              </span>
            ) : (
              '—'
            ),
        },
        {
          key: 'batch',
          header: 'Payout',
          cell: (o) =>
            o.payoutBatch ? (
              <Link
                to={adminPaths.payouts}
                className="inline-flex flex-wrap items-center gap-1.5 text-xs"
                data-testid="queue-batch"
              >
                <span className="font-semibold text-brand-700 hover:underline">
                  Batch {shortOrderId(o.payoutBatch.id)}
                </span>
                <Pill tone="sky">{payoutBatchStatusText[o.payoutBatch.status]}</Pill>
              </Link>
            ) : (
              <span className="text-xs whitespace-nowrap text-slate-500">Not in a batch</span>
            ),
        },
      ]}
    />
  );
}
