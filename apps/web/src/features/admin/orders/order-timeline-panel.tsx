import type { AuditEntry, OrderDetail, TimelineEntry } from '@offzero/shared/api/admin';
import { inWords } from '@offzero/shared/api/orders';
import { useAuditLog } from '../api/get-audit-log';
import { useStaffEmails } from '../api/staff-emails';
import { EmptyState, Panel } from '../components/blocks';
import { Pill, StatusPill } from '../components/badges';
import { describeActor, formatDateTime } from '../format';

type HistoryItem =
  { kind: 'state'; at: string; entry: TimelineEntry } | { kind: 'action'; at: string; entry: AuditEntry };

// State changes the audit log also records (as the action that caused them) are shown once.
const ACTIONS_SHOWN_AS_STATE = new Set(['order.payout_btc', 'order.payout_usd', 'order.cancel']);

/** Every state change (who, when, why) and every staff action on the order, oldest first. */
export function TimelinePanel({ detail }: { detail: OrderDetail }) {
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
