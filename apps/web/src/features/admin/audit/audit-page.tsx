import { toast } from '../../../lib/toast';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { firstError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { PageLoadError } from '../../../components/ui/page';
import { useAuditLog, type AuditFilters } from '../api/get-audit-log';
import {
  auditFilterFormSchema,
  auditTargetTypes,
  type AuditEntry,
  type AuditTargetType,
} from '@offzero/shared/api/admin';
import { adminPaths } from '../admin-paths';
import { AdminPageHeader, EmptyState, TableSkeleton } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { inWords } from '@offzero/shared/api/orders';
import { Pill, type PillTone } from '../components/badges';
import { FilterInput, FilterSelect } from '../components/filter-fields';
import { formatDate, formatDateTime, formatTime } from '../format';
import { diffChanges, showValue } from './diff';

const ACTIONS: { value: string; label: string }[] = [
  { value: 'order.', label: 'Any order action' },
  { value: 'order.mark_paid', label: 'Order: payment received' },
  { value: 'order.payout_btc', label: 'Order: bitcoin payout' },
  { value: 'order.payout_btc_started', label: 'Order: bitcoin payout started' },
  { value: 'order.payout_usd', label: 'Order: dollar payout' },
  { value: 'order.cancel', label: 'Order: cancelled' },
  { value: 'order.resolve_flag', label: 'Order: flag resolved' },
  { value: 'order.four_eyes_requested', label: 'Order: second approver asked for' },
  { value: 'order.four_eyes_approved', label: 'Order: second approver carried out' },
  { value: 'kyc.', label: 'Any KYC decision' },
  { value: 'kyc.approve', label: 'KYC: approved' },
  { value: 'kyc.reject', label: 'KYC: rejected' },
  { value: 'user.', label: 'Any account action' },
  { value: 'user.disable', label: 'Account: disabled' },
  { value: 'user.enable', label: 'Account: enabled' },
  { value: 'settings.update', label: 'Settings changed' },
  { value: 'admin.mfa_enrolled', label: 'Two-factor authentication set up' },
  { value: 'payout_batch.', label: 'Any payout batch action' },
  { value: 'payout_batch.build', label: 'Payout batch: built' },
  { value: 'payout_batch.signed', label: 'Payout batch: signed copy uploaded' },
  { value: 'payout_batch.broadcast', label: 'Payout batch: broadcast' },
  { value: 'payout_batch.bump_fee', label: 'Payout batch: fee bumped' },
  { value: 'payout_batch.abandon', label: 'Payout batch: abandoned' },
  { value: 'tax.1099da_export', label: 'Form 1099-DA file opened or downloaded' },
];

const LIMITS = [50, 100, 250, 500];

const ACTION_TONE: Record<string, PillTone> = {
  order: 'sky',
  kyc: 'violet',
  user: 'amber',
  settings: 'slate',
  case: 'red',
  payout_batch: 'emerald',
  tax: 'violet',
};

function targetLink(entry: AuditEntry): string | null {
  switch (entry.targetType) {
    case 'order':
      return adminPaths.order(entry.targetId);
    case 'user':
      return adminPaths.customer(entry.targetId);
    case 'kyc':
      return adminPaths.kycCase(entry.targetId);
    case 'settings':
      return adminPaths.settings;
    case 'case':
      return adminPaths.case(entry.targetId);
    // A batch has no page of its own: the Payouts page lists every batch.
    case 'payout_batch':
      return adminPaths.payouts;
    // The target of a 1099-DA export is its tax year.
    case 'tax':
      return adminPaths.form1099Da(entry.targetId);
    default:
      return null;
  }
}

/** A staff action in words: its label in the filter list, else its code written out. */
function actionInWords(action: string): string {
  return ACTIONS.find((known) => known.value === action)?.label ?? inWords(action);
}

/** Every staff action with its before and after, newest first. */
export default function AuditPage() {
  const [params, setParams] = useSearchParams();
  const targetType = params.get('targetType') ?? '';
  const filters: AuditFilters = {
    action: params.get('action') ?? undefined,
    targetType: (auditTargetTypes as readonly string[]).includes(targetType)
      ? (targetType as AuditTargetType)
      : '',
    targetId: params.get('targetId') ?? undefined,
    admin: params.get('admin') ?? undefined,
    limit: LIMITS.includes(Number(params.get('limit'))) ? Number(params.get('limit')) : 100,
  };
  const audit = useAuditLog(filters);
  const form = useZodForm(auditFilterFormSchema, {
    defaultValues: { targetId: filters.targetId ?? '', admin: filters.admin ?? '' },
  });

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };

  // The schema trims what was typed; a blank field drops its filter.
  const onSubmit = form.handleSubmit(
    ({ targetId, admin }) => update({ targetId: targetId || undefined, admin: admin || undefined }),
    (errors) => {
      const message = firstError(errors, ['targetId', 'admin']);
      if (message) toast.error(message);
    },
  );

  const columns: Column<AuditEntry>[] = [
    {
      key: 'action',
      header: 'Action',
      primary: true,
      cell: (e) => (
        <Pill tone={ACTION_TONE[e.action.split('.')[0] ?? ''] ?? 'slate'}>{actionInWords(e.action)}</Pill>
      ),
    },
    {
      key: 'at',
      header: 'When',
      primary: true,
      cell: (e) => (
        <span className="text-xs leading-tight whitespace-nowrap text-slate-600" title={formatDateTime(e.at)}>
          <span className="md:block">{formatDate(e.at)}</span>{' '}
          <span className="text-slate-500 md:block">{formatTime(e.at)}</span>
        </span>
      ),
    },
    {
      key: 'admin',
      header: 'Admin',
      cell: (e) => (
        <span className="block break-all md:max-w-44 md:truncate md:break-normal" title={e.admin}>
          {e.admin}
        </span>
      ),
    },
    {
      key: 'target',
      header: 'Target',
      cell: (e) => {
        const href = targetLink(e);
        const label =
          e.targetType === 'settings'
            ? 'settings'
            : `${e.targetType.replace('_', ' ')} ${e.targetId.slice(0, 8)}`;
        return href ? (
          <Link
            to={href}
            title={e.targetId}
            className="font-mono text-xs whitespace-nowrap text-brand-700 hover:underline"
          >
            {label}
          </Link>
        ) : (
          <span className="font-mono text-xs">{label}</span>
        );
      },
    },
    { key: 'changes', header: 'Changes', cell: (e) => <ChangeList entry={e} />, className: 'md:min-w-56' },
    {
      key: 'note',
      header: 'Note',
      cell: (e) => <span className="block text-xs break-words text-slate-700 md:w-36">{e.note ?? '—'}</span>,
    },
  ];

  const anyFilter = ['action', 'targetType', 'targetId', 'admin'].some((key) => params.has(key));

  return (
    <div className="space-y-5">
      <title>Audit log — OffZero back office</title>
      <AdminPageHeader
        title="Audit log"
        description="Who changed what, and when. Entries cannot be edited or removed."
      />
      <section aria-label="Filters" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/80">
        <form
          onSubmit={(event) => void onSubmit(event)}
          className="grid grid-cols-2 gap-3 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]"
        >
          <FilterSelect
            label="Action"
            value={filters.action ?? ''}
            onChange={(event) => update({ action: event.target.value || undefined })}
          >
            <option value="">All actions</option>
            {ACTIONS.map((action) => (
              <option key={action.value} value={action.value}>
                {action.label}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect
            label="Target"
            value={filters.targetType ?? ''}
            onChange={(event) => update({ targetType: event.target.value || undefined })}
          >
            <option value="">All targets</option>
            {auditTargetTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </FilterSelect>
          <FilterInput
            label="Target id"
            {...form.register('targetId')}
            placeholder="Order or customer id"
            className="col-span-2 lg:col-span-1"
          />
          <FilterInput label="Admin" {...form.register('admin')} placeholder="E-mail" />
          <FilterSelect
            label="Show"
            value={String(filters.limit)}
            onChange={(event) => update({ limit: event.target.value })}
          >
            {LIMITS.map((limit) => (
              <option key={limit} value={limit}>
                {limit} newest
              </option>
            ))}
          </FilterSelect>
          <div className="col-span-2 flex items-end gap-2 lg:col-span-1">
            <Button type="submit" variant="secondary" size="sm" className="h-10 flex-1 lg:flex-none">
              Apply
            </Button>
            {anyFilter && (
              <Button
                variant="ghost"
                size="sm"
                className="h-10"
                onClick={() => {
                  form.reset({ targetId: '', admin: '' });
                  setParams(new URLSearchParams(), { replace: true });
                }}
              >
                Reset
              </Button>
            )}
          </div>
        </form>
      </section>
      {audit.isError ? (
        <PageLoadError message={errorMessage(audit.error)} onRetry={() => void audit.refetch()} />
      ) : (
        <div
          className={`overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80 ${audit.isPlaceholderData ? 'opacity-60' : ''}`}
        >
          {audit.isPending ? (
            <TableSkeleton label="Loading the audit log" />
          ) : audit.data.entries.length === 0 ? (
            <EmptyState title="No entries match these filters." />
          ) : (
            <DataTable
              columns={columns}
              rows={audit.data.entries}
              rowKey={(e) => e._id}
              label="Audit log"
              rowTestId="audit-row"
            />
          )}
        </div>
      )}
    </div>
  );
}

const SHOWN = 4;

function ChangeList({ entry }: { entry: AuditEntry }) {
  const changes = diffChanges(entry.before, entry.after);
  if (changes.length === 0) return <span className="text-xs text-slate-500">no field changed</span>;
  const line = (change: (typeof changes)[number]) => (
    <li key={change.key} className="text-xs leading-5 [overflow-wrap:anywhere]">
      <span className="font-mono text-slate-500">{change.key}</span>{' '}
      <span className="text-red-700 line-through decoration-red-300">{showValue(change.before)}</span>{' '}
      <span aria-label="to" className="text-slate-500">
        →
      </span>{' '}
      <span className="font-medium text-emerald-700">{showValue(change.after)}</span>
    </li>
  );
  return (
    <div className="text-left">
      <ul>{changes.slice(0, SHOWN).map(line)}</ul>
      {changes.length > SHOWN && (
        <details className="group">
          <summary className="cursor-pointer text-xs font-medium text-brand-700 select-none">
            {changes.length - SHOWN} more change{changes.length - SHOWN === 1 ? '' : 's'}
          </summary>
          <ul>{changes.slice(SHOWN).map(line)}</ul>
        </details>
      )}
    </div>
  );
}
