import { Link } from 'react-router';
import type { AuditEntry } from '@offzero/shared/api/admin';
import { inWords } from '@offzero/shared/api/orders';
import { adminPaths } from '../admin-paths';
import { type Column } from '../components/data-table';
import { Pill, type PillTone } from '../components/badges';
import { formatDate, formatDateTime, formatTime } from '../format';
import { diffChanges, showValue } from './diff';

/** The actions the filter offers (a prefix such as 'order.' matches every action of its kind). */
export const ACTIONS: { value: string; label: string }[] = [
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
  { value: 'ach_file.download', label: 'ACH file: made and downloaded' },
  { value: 'tax.1099da_export', label: 'Form 1099-DA file opened or downloaded' },
];

const ACTION_TONE: Record<string, PillTone> = {
  order: 'sky',
  kyc: 'violet',
  user: 'amber',
  settings: 'slate',
  case: 'red',
  payout_batch: 'emerald',
  ach_file: 'emerald',
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

/** One audit entry: the action, when, who, on what (linked), what changed and the note. */
export const AUDIT_COLUMNS: Column<AuditEntry>[] = [
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
