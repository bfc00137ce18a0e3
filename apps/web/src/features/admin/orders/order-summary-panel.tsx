import type { ReactNode } from 'react';
import type { AdminOrder } from '@offzero/shared/api/admin';
import { Details, Panel } from '../components/blocks';
import { btc, formatDateTime, usd } from '../format';

export function SummaryPanel({ order }: { order: AdminOrder }) {
  const rows: [string, ReactNode][] = [
    ['Pair', order.pair],
    [
      order.type === 'buy' ? 'Bitcoin bought' : 'Bitcoin sold',
      <span key="a" className="tabular-nums">
        {btc(order.amount)}
      </span>,
    ],
    ['Price', `${usd(order.price)} / BTC`],
    [
      order.type === 'buy' ? 'Customer pays' : 'Customer receives',
      <strong key="v" className="tabular-nums">
        {usd(order.value)}
      </strong>,
    ],
    ['Platform fee', usd(order.platformFee)],
  ];
  if (order.type === 'buy') rows.push(['Network fee', usd(order.networkFee)]);
  else rows.push(['Bank charges', usd(order.bankFee)]);
  rows.push(['Created', formatDateTime(order.createdAt)]);
  if (order.status === 'pending')
    rows.push([
      order.type === 'buy' ? 'Quote valid until' : 'Deposit window ends',
      formatDateTime(order.expiresAt),
    ]);
  if (order.completedAt) rows.push(['Completed', formatDateTime(order.completedAt)]);
  if (order.cancelReason) rows.push(['Cancel reason', order.cancelReason]);
  return (
    <Panel title="Summary" testId="order-summary">
      <Details rows={rows} />
    </Panel>
  );
}
