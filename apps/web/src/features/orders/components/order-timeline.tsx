import type { Order, OrderTimelineEntry } from '@offzero/shared/api/orders';
import { useAppConfig } from '../../../lib/app-config';
import { errorMessage } from '../../../lib/api-client';
import { formatUsdNumber } from '../../../lib/format';
import { Spinner } from '../../../components/ui/spinner';
import { useOrderTimeline } from '../api/order-timeline';

const DOT: Record<OrderTimelineEntry['kind'], string> = {
  status: 'bg-brand-600',
  repriced: 'bg-sky-600',
  review_started: 'bg-amber-500',
  review_ended: 'bg-emerald-600',
  payout_replaced: 'bg-brand-600',
  payout_sent: 'bg-emerald-600',
  bank_credit: 'bg-emerald-600',
};

/**
 * The order's story in the customer's words (docs/design.md): every status with its time, each
 * re-pricing with its figures before and after and why, reviews and how they ended, the transactions
 * and references that moved the money, and a sell's confirmations as they arrive.
 */
export function OrderTimeline({ order }: { order: Order }) {
  const timeline = useOrderTimeline(order);
  const required = timeline.data?.confirmations?.required;

  return (
    <div data-testid="order-timeline">
      {order.type === 'sell' && order.txn && required !== undefined && (
        <p className="mb-3 text-sm text-slate-700" data-testid="order-confirmations-progress">
          Confirmations:{' '}
          <span className="font-semibold text-slate-900">
            {Math.min(order.confirmations, required)} of {required}
          </span>
          {order.confirmations < required && order.status === 'processing' && (
            <span className="text-slate-600"> (updates live)</span>
          )}
        </p>
      )}
      {timeline.isPending ? (
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Spinner className="size-4" /> Loading the timeline…
        </p>
      ) : timeline.isError ? (
        <p className="text-sm text-red-700">{errorMessage(timeline.error)}</p>
      ) : (
        <ol className="relative space-y-4 border-l border-slate-200 pl-5">
          {timeline.data.timeline.map((entry, index) => (
            <TimelineStep key={`${entry.at}-${entry.kind}-${index}`} entry={entry} />
          ))}
        </ol>
      )}
    </div>
  );
}

/**
 * A step's time to the second: a Lightning sell paid out instantly goes from paid to dollars settled
 * within seconds, and each step shows when it happened.
 */
function stepTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? '—'
    : date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'medium' });
}

function TimelineStep({ entry }: { entry: OrderTimelineEntry }) {
  const { explorerUrl } = useAppConfig();
  return (
    <li className="relative" data-kind={entry.kind}>
      <span
        aria-hidden
        className={`absolute top-1.5 -left-[1.6rem] size-2.5 rounded-full ring-4 ring-white ${DOT[entry.kind]}`}
      />
      <div className="flex flex-wrap items-baseline justify-between gap-x-3">
        <p className="text-sm font-semibold text-slate-900">{entry.title}</p>
        <time dateTime={entry.at} className="text-xs text-slate-600">
          {stepTime(entry.at)}
        </time>
      </div>
      {entry.detail && (
        <p className="mt-0.5 text-sm break-words whitespace-pre-line text-slate-700">{entry.detail}</p>
      )}
      {entry.repricing && (
        <table className="mt-2 w-full rounded-xl bg-slate-50 text-xs text-slate-700 ring-1 ring-slate-200">
          <thead>
            <tr className="text-left text-slate-600">
              <th scope="col" className="px-3 pt-2 font-semibold">
                <span className="sr-only">Figure</span>
              </th>
              <th scope="col" className="px-3 pt-2 font-semibold">
                Before
              </th>
              <th scope="col" className="px-3 pt-2 font-semibold">
                After
              </th>
            </tr>
          </thead>
          <tbody>
            <FigureRow
              label="Bitcoin"
              before={entry.repricing.before.amount.toFixed(8)}
              after={entry.repricing.after.amount.toFixed(8)}
            />
            <FigureRow
              label="Price"
              before={formatUsdNumber(entry.repricing.before.price)}
              after={formatUsdNumber(entry.repricing.after.price)}
            />
            <FigureRow
              label="Value"
              before={formatUsdNumber(entry.repricing.before.value)}
              after={formatUsdNumber(entry.repricing.after.value)}
              last
            />
          </tbody>
        </table>
      )}
      {entry.reference && (
        <p className="mt-1 text-xs text-slate-700">
          {entry.reference.kind === 'tx' ? (
            <>
              Transaction{' '}
              <a
                href={`${explorerUrl}/tx/${entry.reference.value}`}
                target="_blank"
                rel="noopener noreferrer"
                className="font-mono break-all text-brand-700 underline underline-offset-2 hover:text-brand-800"
              >
                {entry.reference.value}
              </a>
              {entry.reference.vout !== undefined && (
                <span data-testid="timeline-vout">, output {entry.reference.vout}</span>
              )}
            </>
          ) : entry.reference.kind === 'lightning' ? (
            <>
              Lightning payment hash{' '}
              <span className="font-mono break-all text-slate-900">{entry.reference.value}</span>
              {entry.reference.preimage && (
                <span className="block" data-testid="timeline-preimage">
                  Preimage (proof of payment){' '}
                  <span className="font-mono break-all text-slate-900">{entry.reference.preimage}</span>
                </span>
              )}
            </>
          ) : (
            <>
              Bank reference{' '}
              <span className="font-mono break-all text-slate-900">{entry.reference.value}</span>
            </>
          )}
        </p>
      )}
    </li>
  );
}

function FigureRow({
  label,
  before,
  after,
  last = false,
}: {
  label: string;
  before: string;
  after: string;
  last?: boolean;
}) {
  const pad = last ? 'px-3 pt-1 pb-2' : 'px-3 pt-1';
  return (
    <tr>
      <th scope="row" className={`${pad} text-left font-normal text-slate-600`}>
        {label}
      </th>
      <td className={`${pad} font-mono tabular-nums`}>{before}</td>
      <td className={`${pad} font-mono font-semibold text-slate-900 tabular-nums`}>{after}</td>
    </tr>
  );
}
