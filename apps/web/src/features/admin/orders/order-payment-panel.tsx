import type { ReactNode } from 'react';
import type { AdminOrder } from '@offzero/shared/api/admin';
import { inWords, PAYMENT_STATUS_LABEL } from '@offzero/shared/api/orders';
import { Details, Panel } from '../components/blocks';
import { Pill } from '../components/badges';
import { formatDateTime, methodLabel, usd } from '../format';
import { RECEIVING_LABEL } from './payout-details';

export function PaymentPanel({ order }: { order: AdminOrder }) {
  const payment = order.payment;
  const receiving = Object.entries(payment?.receiving_in ?? {}).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
  );
  const rows: [string, ReactNode][] = [
    ['Method', methodLabel(payment?.method)],
    [
      'Payment status',
      payment ? (
        <Pill key="s" tone="slate">
          {inWords(payment.status, PAYMENT_STATUS_LABEL)}
        </Pill>
      ) : (
        'No payment yet'
      ),
    ],
  ];
  if (payment) rows.push(['Amount', usd(payment.amount)]);
  if (payment?.create_time)
    rows.push([order.type === 'buy' ? 'Submitted' : 'Chosen', formatDateTime(payment.create_time)]);
  if (order.type === 'buy') {
    rows.push([
      payment?.method === 'paypal' ? 'PayPal transaction' : 'Customer’s reference',
      order.bankTxn ? (
        <span key="r" className="font-mono text-xs break-all">
          {order.bankTxn}
        </span>
      ) : (
        <span className="text-slate-500">none</span>
      ),
    ]);
    if (order.paypalOrderId)
      rows.push([
        'PayPal order',
        <span key="p" className="font-mono text-xs">
          {order.paypalOrderId}
        </span>,
      ]);
    rows.push([
      'Received',
      order.paymentConfirmedAt ? (
        `${formatDateTime(order.paymentConfirmedAt)}${order.paymentConfirmedBy ? ` by ${order.paymentConfirmedBy}` : ''}`
      ) : (
        <span className="text-slate-500">not confirmed yet</span>
      ),
    ]);
  } else {
    rows.push([
      'Payout reference',
      order.bankTxn ? (
        <span key="r" className="font-mono text-xs break-all">
          {order.bankTxn}
        </span>
      ) : (
        <span className="text-slate-500">not paid yet</span>
      ),
    ]);
  }
  if (receiving.length > 0) {
    rows.push([
      order.type === 'buy' ? 'Paid into (ours)' : 'Pay to (customer’s)',
      <span key="recv" className="block space-y-0.5">
        {receiving.map(([key, value]) => (
          <span key={key} className="block">
            <span className="text-slate-500">{RECEIVING_LABEL[key] ?? key}:</span>{' '}
            <span className="break-all">{value}</span>
          </span>
        ))}
      </span>,
    ]);
  }
  return (
    <Panel title="Payment" testId="order-payment">
      <Details rows={rows} />
    </Panel>
  );
}
