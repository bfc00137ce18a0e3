import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { ButtonLink } from '../../../components/ui/button';
import { ArrowLeftIcon, AlertIcon } from '../../../components/ui/icons';
import { PageLoadError, PageSkeleton } from '../../../components/ui/page';
import { useAuditLog } from '../api/get-audit-log';
import { useAdminOrder } from '../api/get-order';
import { useStaffEmails } from '../api/staff-emails';
import type { AdminOrder, AuditEntry, Deposit, OrderDetail, TimelineEntry } from '@offzero/shared/api/admin';
import { inWords, PAYMENT_STATUS_LABEL } from '@offzero/shared/api/orders';
import { adminPaths } from '../admin-paths';
import { AdminPageHeader, Details, EmptyState, ExplorerLink, IdWithCopy, Panel } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { FlagPill, Pill, StatusPill, TypeLabel } from '../components/badges';
import {
  btc,
  btcFromSatsText,
  describeActor,
  formatDateTime,
  methodLabel,
  shortOrderId,
  usd,
} from '../format';
import { flagLabel } from './order-actions';
import { OrderActionsPanel, RECEIVING_LABEL } from './order-actions-panel';

/** One order in full: figures, customer, payment, chain, every state change, and its actions. */
export default function OrderPage() {
  const { orderId = '' } = useParams();
  const detail = useAdminOrder(orderId);

  return (
    <div className="space-y-5">
      <title>{`Order #${shortOrderId(orderId)} — OffZero back office`}</title>
      <ButtonLink to={adminPaths.orders} variant="ghost" size="sm" className="-ml-3">
        <ArrowLeftIcon className="size-4" />
        All orders
      </ButtonLink>
      {detail.isPending ? (
        <PageSkeleton blocks={3} />
      ) : detail.isError ? (
        <PageLoadError message={errorMessage(detail.error)} onRetry={() => void detail.refetch()} />
      ) : (
        <OrderView detail={detail.data} />
      )}
    </div>
  );
}

/**
 * Where a buy's bitcoin goes (the customer's address-book entry) and, while it may not go yet, why:
 * the address is unconfirmed, in its cooldown, removed, or needs an ownership proof.
 */
function PayoutDestinationNote({
  destination,
}: {
  destination: NonNullable<OrderDetail['payoutDestination']>;
}) {
  const { entry } = destination;
  return (
    <div
      role="note"
      data-testid="order-payout-destination"
      data-due={destination.due}
      className={`flex items-start gap-3 rounded-2xl p-4 text-sm ring-1 ${
        destination.due
          ? 'bg-slate-50 text-slate-700 ring-slate-200'
          : 'bg-amber-50 text-amber-900 ring-amber-600/20'
      }`}
    >
      {!destination.due && <AlertIcon className="mt-0.5 size-5 shrink-0" />}
      <div className="min-w-0">
        <p className="font-semibold">
          {destination.due ? 'Payout address ready' : 'Payout waiting for the address'}
          {entry && (
            <span className="font-normal">
              {' '}
              · {entry.label} ({entry.kind === 'xpub' ? 'xpub' : 'address'}, {entry.status}
              {entry.proven ? ', proven' : ''})
            </span>
          )}
        </p>
        {destination.address && <p className="mt-0.5 font-mono break-all">{destination.address}</p>}
        {destination.message && <p className="mt-0.5 break-words">{destination.message}</p>}
      </div>
    </div>
  );
}

function OrderView({ detail }: { detail: OrderDetail }) {
  const { order, customer, confirmationsRequired } = detail;
  return (
    <>
      <AdminPageHeader
        title={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
            Order #{shortOrderId(order._id)}
            <span className="flex flex-wrap items-center gap-1.5 text-base font-normal">
              <TypeLabel type={order.type} />
              <StatusPill status={order.status} />
              {order.flag && <FlagPill flag={order.flag} note={order.flagNote} />}
            </span>
          </span>
        }
        description={
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            Created {formatDateTime(order.createdAt)} ·
            <IdWithCopy value={order._id} label="Copy order id" />
          </span>
        }
      />

      {order.flag && (
        <div
          role="note"
          className="flex items-start gap-3 rounded-2xl bg-red-50 p-4 text-sm text-red-800 ring-1 ring-red-600/15"
        >
          <AlertIcon className="mt-0.5 size-5 shrink-0" />
          <div className="min-w-0">
            <p className="font-semibold">Flagged: {flagLabel(order.flag)}</p>
            {order.flagNote && <p className="mt-0.5 break-words">{order.flagNote}</p>}
          </div>
        </div>
      )}
      {detail.payoutDestination && <PayoutDestinationNote destination={detail.payoutDestination} />}
      {!order.flag && order.flagNote && (
        <p className="rounded-2xl bg-slate-50 p-3 text-sm text-slate-600 ring-1 ring-slate-200">
          Earlier flag: {order.flagNote}
        </p>
      )}

      <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="order-2 min-w-0 space-y-5 lg:order-1">
          <SummaryPanel order={order} />
          <PaymentPanel order={order} />
          <ChainPanel
            order={order}
            deposits={detail.deposits}
            confirmationsRequired={confirmationsRequired}
          />
          <TimelinePanel detail={detail} />
        </div>
        <div className="order-1 min-w-0 space-y-5 lg:order-2">
          <div className="space-y-5 lg:sticky lg:top-20">
            <OrderActionsPanel order={order} offers={detail.actions} />
            <Panel title="Customer" testId="order-customer">
              {customer ? (
                <Details
                  rows={[
                    [
                      'Name',
                      `${customer.firstName} ${customer.lastName}`.trim() || (
                        <span className="text-slate-500">not given</span>
                      ),
                    ],
                    [
                      'E-mail',
                      <Link
                        key="email"
                        to={adminPaths.customer(customer._id)}
                        className="break-all text-brand-700 hover:underline"
                      >
                        {customer.email}
                      </Link>,
                    ],
                    ['Phone', customer.phoneNumber],
                    [
                      'Customer id',
                      <IdWithCopy
                        key="id"
                        value={customer._id}
                        label="Copy customer id"
                        display={customer._id.slice(0, 8)}
                      />,
                    ],
                  ]}
                />
              ) : (
                <p className="text-sm text-slate-500">The customer record is missing.</p>
              )}
            </Panel>
          </div>
        </div>
      </div>
    </>
  );
}

function SummaryPanel({ order }: { order: AdminOrder }) {
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

function PaymentPanel({ order }: { order: AdminOrder }) {
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

function ChainPanel({
  order,
  deposits,
  confirmationsRequired,
}: {
  order: AdminOrder;
  deposits: Deposit[];
  confirmationsRequired: number;
}) {
  const txnRow: [string, ReactNode] = [
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
  const columns: Column<Deposit>[] = [
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
            columns={columns}
            rows={deposits}
            rowKey={(d) => `${d.txid}:${d.vout}`}
            label="Deposits"
          />
        )}
      </div>
    </Panel>
  );
}

type HistoryItem =
  { kind: 'state'; at: string; entry: TimelineEntry } | { kind: 'action'; at: string; entry: AuditEntry };

// State changes the audit log also records (as the action that caused them) are shown once.
const ACTIONS_SHOWN_AS_STATE = new Set(['order.payout_btc', 'order.payout_usd', 'order.cancel']);

/** Every state change (who, when, why) and every staff action on the order, oldest first. */
function TimelinePanel({ detail }: { detail: OrderDetail }) {
  const { order, timeline, customer } = detail;
  const audit = useAuditLog({ targetType: 'order', targetId: order._id, limit: 200 });
  const staffIds = timeline
    .map((event) => event.actor)
    .filter((actor) => actor.startsWith('admin:'))
    .map((actor) => actor.slice('admin:'.length));
  const staff = useStaffEmails(staffIds);

  const items: HistoryItem[] = [
    ...timeline.map((entry) => ({ kind: 'state' as const, at: entry.at, entry })),
    ...(audit.data?.entries ?? [])
      .filter((entry) => !ACTIONS_SHOWN_AS_STATE.has(entry.action))
      .map((entry) => ({ kind: 'action' as const, at: entry.at, entry })),
  ].sort((a, b) => a.at.localeCompare(b.at));

  return (
    <Panel title="Timeline" testId="order-timeline">
      {items.length === 0 ? (
        <EmptyState title="No history recorded." />
      ) : (
        <ol className="relative space-y-4 before:absolute before:top-2 before:bottom-2 before:left-[7px] before:w-px before:bg-slate-200">
          {items.map((item, index) =>
            item.kind === 'state' ? (
              <StateChange key={`s${index}`} entry={item.entry} customerId={customer?._id} staff={staff} />
            ) : (
              <StaffAction key={`a${item.entry._id}`} entry={item.entry} />
            ),
          )}
        </ol>
      )}
    </Panel>
  );
}

function StateChange({
  entry,
  customerId,
  staff,
}: {
  entry: TimelineEntry;
  customerId: string | undefined;
  staff: Record<string, string>;
}) {
  const actor = describeActor(entry.actor, customerId);
  const staffId = entry.actor.startsWith('admin:') ? entry.actor.slice('admin:'.length) : null;
  const who = staffId && staff[staffId] ? staff[staffId] : actor.label;
  const dot = {
    customer: 'bg-sky-500',
    admin: 'bg-brand-500',
    system: 'bg-slate-400',
    other: 'bg-slate-400',
  }[actor.kind];
  return (
    <li className="relative pl-7" data-testid="timeline-entry">
      <span
        aria-hidden="true"
        className={`absolute top-1.5 left-0 size-[15px] rounded-full ring-4 ring-white ${dot}`}
      />
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        {entry.kind === 'moved' && entry.from ? (
          <>
            <StatusText status={entry.from} />
            <span aria-label="to" className="text-slate-600">
              →
            </span>
            <StatusText status={entry.to} />
          </>
        ) : entry.kind === 'created' ? (
          <>
            <span className="text-slate-600">Created as</span>
            <StatusText status={entry.to} />
          </>
        ) : (
          <span className="font-medium text-ink-900">{entry.title}</span>
        )}
        <span className="text-slate-600">by</span>
        <span className="font-medium break-all text-ink-900">{who}</span>
      </div>
      <p className="mt-0.5 text-xs text-slate-600">{formatDateTime(entry.at)}</p>
      {entry.reason && entry.reason.toLowerCase() !== entry.title.toLowerCase() && (
        <p className="mt-1 text-sm break-words text-slate-700">{entry.reason}</p>
      )}
      {entry.facts.length > 0 && (
        <dl className="mt-1 space-y-0.5 text-xs text-slate-700">
          {entry.facts.map((fact, index) => (
            <div key={index} className="flex gap-1.5">
              <dt className="shrink-0 text-slate-600">{fact.label}:</dt>
              <dd className="min-w-0 break-all">{fact.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}

const ACTION_TEXT: Record<string, string> = {
  'order.mark_paid': 'marked the payment received',
  'order.resolve_flag': 'resolved the flag',
  'order.payout_btc_started': 'started the bitcoin payout',
  'order.refund_btc': 'recorded the bitcoin returned to the customer',
  'order.four_eyes_requested': 'asked for a second approver',
  'order.four_eyes_approved': 'carried it out as the second approver',
};

/** What a staff member did, after their name: known words, else the action's code in words. */
const actionText = (action: string) =>
  ACTION_TEXT[action] ?? inWords(action.replace(/^order\./, '')).toLowerCase();

function StaffAction({ entry }: { entry: AuditEntry }) {
  return (
    <li className="relative pl-7" data-testid="timeline-action">
      <span
        aria-hidden="true"
        className="absolute top-1.5 left-0 size-[15px] rounded-full bg-white ring-4 ring-white"
      >
        <span className="block size-full rounded-full border-2 border-brand-500" />
      </span>
      <p className="text-sm">
        <span className="font-medium break-all text-ink-900">{entry.admin}</span>{' '}
        <span className="text-slate-600">{actionText(entry.action)}</span>
      </p>
      <p className="mt-0.5 text-xs text-slate-600">{formatDateTime(entry.at)}</p>
      {entry.note && <p className="mt-1 text-sm break-words text-slate-700">{entry.note}</p>}
    </li>
  );
}

function StatusText({ status }: { status: string }) {
  const known = ['pending', 'processing', 'completed', 'expired', 'cancelled'] as const;
  return (known as readonly string[]).includes(status) ? (
    <StatusPill status={status as (typeof known)[number]} />
  ) : (
    <Pill tone="slate">{inWords(status)}</Pill>
  );
}
