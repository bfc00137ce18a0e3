import type { ReactNode } from 'react';
import type { OrderPayoutView } from '@offzero/shared/api/admin';
import { Details, Panel } from '../components/blocks';
import { Pill, type PillTone } from '../components/badges';
import { formatDateTime, methodLabel } from '../format';

const STATE_TONE: Record<OrderPayoutView['state'], PillTone> = {
  requested: 'amber',
  submitted: 'sky',
  settled: 'emerald',
  failed: 'red',
  returned: 'red',
  cancelled: 'slate',
};

const BANK_STATUS_TONE: Record<NonNullable<OrderPayoutView['bankTransfer']>['status'], PillTone> = {
  pending: 'amber',
  submitted: 'sky',
  settled: 'emerald',
  rejected: 'red',
  returned: 'red',
};

const SENDER_LABEL: Record<OrderPayoutView['sender'], string> = {
  operator: 'Staff, by hand',
  batch: 'Payout batch',
  'demo-chain': 'Demo wallet',
  lightning: 'Lightning node',
  'nacha-file': 'ACH file',
  'bank-api': 'Bank API',
};

const mono = (value: string, key: string) => (
  <span key={key} className="font-mono text-xs break-all">
    {value}
  </span>
);

function bankRows(payout: OrderPayoutView): [string, ReactNode][] {
  if (payout.bankUnavailable) {
    return [['Bank status', <span className="text-amber-700">The bank did not answer; reload later.</span>]];
  }
  const transfer = payout.bankTransfer;
  if (!transfer) return [];
  const rows: [string, ReactNode][] = [
    ['Bank transfer', mono(transfer.id, 'transfer')],
    [
      'Bank status',
      <span className="flex flex-wrap items-center gap-2">
        <Pill tone={BANK_STATUS_TONE[transfer.status]}>{transfer.status}</Pill>
        {transfer.returnCode && <span className="font-mono text-xs">code {transfer.returnCode}</span>}
      </span>,
    ],
    ['Sent to the bank', formatDateTime(transfer.createdAt)],
  ];
  if (transfer.settledAt) rows.push(['Settled by the bank', formatDateTime(transfer.settledAt)]);
  if (transfer.traceNumber) rows.push(['Trace number', mono(transfer.traceNumber, 'trace')]);
  return rows;
}

/** Each payout of the order, with the bank's word on its transfer when the bank's API sent it. */
export function PayoutsPanel({ payouts }: { payouts: OrderPayoutView[] }) {
  if (payouts.length === 0) return null;
  return (
    <Panel title="Payouts" testId="order-payouts">
      <ol className="space-y-4">
        {payouts.map((payout, index) => (
          <li
            key={payout.id}
            data-testid="order-payout"
            className="border-t border-slate-100 pt-4 first:border-t-0 first:pt-0"
          >
            <p className="mb-2 flex flex-wrap items-center gap-2 text-sm font-semibold text-ink-900">
              {payout.purpose === 'refund' ? 'Refund' : `Payout ${index + 1}`} · {methodLabel(payout.rail)}
              <Pill tone={STATE_TONE[payout.state]}>{payout.state}</Pill>
            </p>
            <Details
              rows={[
                ['Sent by', `${SENDER_LABEL[payout.sender]} (${payout.createdBy})`],
                ['Started', formatDateTime(payout.createdAt)],
                ...(payout.sentAt ? [['Settled', formatDateTime(payout.sentAt)] as [string, ReactNode]] : []),
                ...(payout.reference && !payout.bankTransfer
                  ? [['Reference', mono(payout.reference, 'ref')] as [string, ReactNode]]
                  : []),
                ...(payout.txid ? [['Transaction', mono(payout.txid, 'txid')] as [string, ReactNode]] : []),
                ...bankRows(payout),
              ]}
            />
          </li>
        ))}
      </ol>
    </Panel>
  );
}
