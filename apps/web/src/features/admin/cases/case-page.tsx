import { useRef, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { z } from 'zod';
import { toast } from '../../../lib/toast';
import {
  CASE_MESSAGES,
  type CaseDetail,
  type CaseStatus,
  type CaseUpdateRequest,
} from '@offzero/shared/api/cases';
import { errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/forms';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { Button, ButtonLink } from '../../../components/ui/button';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { PageLoadError, PageSkeleton } from '../../../components/ui/page';
import { TextField } from '../../../components/ui/text-field';
import { useMonitoringCase } from '../api/get-case';
import { useUpdateCase } from '../api/update-case';
import { adminPaths } from '../admin-paths';
import { ActionDialog, reasonSchema, TextAreaField } from '../components/action-dialog';
import { AdminPageHeader, Details, EmptyState, Panel } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { TypeLabel } from '../components/badges';
import { formatDate, formatDateTime, shortOrderId, usd } from '../format';
import { CasePill, RuleLabel } from './case-badges';
import { CASE_OUTCOME_LABEL, CASE_RULE_HINT, CASE_STATUS_LABEL } from './case-words';

/** One monitoring case: what matched, the notes, the history, and the review. */
export default function CasePage() {
  const { caseId = '' } = useParams();
  const found = useMonitoringCase(caseId);
  return (
    <div className="space-y-5">
      <title>Monitoring case — OffZero back office</title>
      <ButtonLink to={adminPaths.cases} variant="ghost" size="sm" className="-ml-3">
        <ArrowLeftIcon className="size-4" />
        All cases
      </ButtonLink>
      {found.isPending ? (
        <PageSkeleton blocks={3} />
      ) : found.isError ? (
        <PageLoadError message={errorMessage(found.error)} onRetry={() => void found.refetch()} />
      ) : (
        <CaseView monitoringCase={found.data} />
      )}
    </div>
  );
}

type Dialog = { kind: 'review' } | { kind: 'note' } | { kind: 'reopen' } | { kind: 'close' };

function CaseView({ monitoringCase: c }: { monitoringCase: CaseDetail }) {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  return (
    <>
      <AdminPageHeader
        eyebrow={
          <span className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
            Monitoring case
          </span>
        }
        title={
          <span className="flex flex-wrap items-center gap-3">
            <RuleLabel rule={c.rule} />
            <CasePill status={c.status} />
          </span>
        }
        description={
          <>
            <Link to={adminPaths.customer(c.userId)} className="break-all text-brand-700 hover:underline">
              {c.customerEmail ?? c.userId}
            </Link>
            <span> · opened {formatDateTime(c.openedAt)}</span>
          </>
        }
      />
      <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-5">
          <EvidencePanel monitoringCase={c} />
          <Panel title={`Notes (${c.notes.length})`} testId="case-notes">
            {c.notes.length === 0 ? (
              <p className="text-sm text-slate-500">No notes yet. Every review step adds one.</p>
            ) : (
              <ol className="space-y-3">
                {c.notes.map((note) => (
                  <li key={note.id} className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200/70">
                    <p className="text-sm whitespace-pre-wrap break-words text-ink-900">{note.note}</p>
                    <p className="mt-1 text-xs text-slate-500">
                      {note.admin} · {formatDateTime(note.at)}
                    </p>
                  </li>
                ))}
              </ol>
            )}
          </Panel>
        </div>
        <div className="space-y-5">
          <Panel title="Review" testId="case-review">
            {c.status === 'closed' ? (
              <Details
                rows={[
                  ['Status', <CasePill key="s" status={c.status} />],
                  ['Outcome', c.outcome ? CASE_OUTCOME_LABEL[c.outcome] : null],
                  ['SAR filed on', c.sarFiledAt ? formatDate(`${c.sarFiledAt}T12:00:00Z`) : null],
                  [
                    'SAR reference',
                    c.sarReference ? (
                      <span key="r" className="font-mono">
                        {c.sarReference}
                      </span>
                    ) : null,
                  ],
                  ['Closed', formatDateTime(c.closedAt)],
                ]}
              />
            ) : (
              <div className="space-y-3">
                <p className="text-sm text-slate-600">{CASE_RULE_HINT[c.rule]}</p>
                <div className="flex flex-col gap-2 sm:flex-row lg:flex-col">
                  {c.status === 'open' ? (
                    <Button fullWidth onClick={() => setDialog({ kind: 'review' })}>
                      Start review
                    </Button>
                  ) : (
                    <Button fullWidth variant="outline" onClick={() => setDialog({ kind: 'reopen' })}>
                      Back to open
                    </Button>
                  )}
                  <Button fullWidth variant="outline" onClick={() => setDialog({ kind: 'note' })}>
                    Add a note
                  </Button>
                  <Button fullWidth variant="secondary" onClick={() => setDialog({ kind: 'close' })}>
                    Close case
                  </Button>
                </div>
              </div>
            )}
          </Panel>
          <Panel title="History" testId="case-history">
            <ol className="space-y-3">
              {c.history.map((entry, index) => (
                <li key={index} className="text-sm">
                  <p className="font-medium text-ink-900">
                    {entry.fromStatus === null
                      ? 'Opened by the monitoring rules'
                      : entry.fromStatus === entry.toStatus
                        ? 'Note added'
                        : `${CASE_STATUS_LABEL[entry.fromStatus]} → ${CASE_STATUS_LABEL[entry.toStatus]}`}
                  </p>
                  <p className="text-xs text-slate-500">
                    {entry.actor === 'monitoring' ? 'Monitoring' : entry.actor} · {formatDateTime(entry.at)}
                  </p>
                </li>
              ))}
            </ol>
          </Panel>
        </div>
      </div>
      {dialog?.kind === 'close' && <CloseDialog monitoringCase={c} onClose={() => setDialog(null)} />}
      {dialog && dialog.kind !== 'close' && (
        <NoteDialog
          monitoringCase={c}
          status={dialog.kind === 'review' ? 'reviewing' : dialog.kind === 'reopen' ? 'open' : c.status}
          onClose={() => setDialog(null)}
        />
      )}
    </>
  );
}

interface EvidenceOrder {
  orderId: string;
  type: 'buy' | 'sell';
  valueUsd: number;
  createdAt: string;
}

const evidenceOrderSchema = z.object({
  orderId: z.string(),
  type: z.enum(['buy', 'sell']),
  valueUsd: z.number(),
  createdAt: z.string(),
});

/** The values that matched, in words; the orders as a table linking to each. */
function EvidencePanel({ monitoringCase: c }: { monitoringCase: CaseDetail }) {
  const evidence = c.evidence;
  const orders = z.array(evidenceOrderSchema).safeParse(evidence.orders).data ?? [];
  const others = z
    .array(z.object({ userId: z.string(), orderId: z.string(), createdAt: z.string() }))
    .safeParse(evidence.otherCustomers).data;
  const text = (key: string) => (typeof evidence[key] === 'string' ? evidence[key] : null);
  const rows: [string, ReactNode][] = [
    ['Found', text('description')],
    ['Holder name', text('holderName')],
    ['Verified name', text('kycName')],
    [
      'Account',
      text('accountNumber') ? (
        <span key="a" className="font-mono">
          {text('accountNumber')}
        </span>
      ) : null,
    ],
    [
      text('kind') === 'bank_account' ? 'Bank account' : 'Address',
      text('destination') ? (
        <span key="d" className="font-mono break-all">
          {text('destination')}
        </span>
      ) : null,
    ],
    ['Identity approved', text('kycApprovedAt') ? formatDateTime(text('kycApprovedAt')) : null],
    ['Flag note', text('flagNote')],
  ];
  const columns: Column<EvidenceOrder>[] = [
    {
      key: 'order',
      header: 'Order',
      primary: true,
      cell: (o) => (
        <span className="inline-flex items-center gap-2">
          <Link
            to={adminPaths.order(o.orderId)}
            className="font-mono text-xs font-semibold text-brand-700 hover:underline"
          >
            #{shortOrderId(o.orderId)}
          </Link>
          <TypeLabel type={o.type} />
        </span>
      ),
    },
    {
      key: 'value',
      header: 'Value',
      className: 'text-right',
      cell: (o) => <span className="font-semibold tabular-nums">{usd(o.valueUsd)}</span>,
    },
    {
      key: 'at',
      header: 'Placed',
      className: 'text-right',
      cell: (o) => (
        <span className="text-xs whitespace-nowrap text-slate-600">{formatDateTime(o.createdAt)}</span>
      ),
    },
  ];
  return (
    <Panel title="Evidence" testId="case-evidence" padded={false}>
      <div className="px-4 py-4 sm:px-5">
        <Details rows={rows.filter(([, value]) => value !== null && value !== undefined)} />
      </div>
      {orders.length > 0 && (
        <div className="border-t border-slate-100">
          <DataTable columns={columns} rows={orders} rowKey={(o) => o.orderId} label="Orders in the case" />
        </div>
      )}
      {others && others.length > 0 && (
        <div className="border-t border-slate-100 px-4 py-3 text-sm sm:px-5">
          <p className="font-medium text-ink-900">Also used by</p>
          <ul className="mt-1 space-y-1">
            {others.map((other) => (
              <li key={other.orderId} className="flex flex-wrap gap-x-2">
                <Link
                  to={adminPaths.customer(other.userId)}
                  className="font-mono text-xs text-brand-700 hover:underline"
                >
                  customer {other.userId.slice(0, 8)}
                </Link>
                <Link
                  to={adminPaths.order(other.orderId)}
                  className="font-mono text-xs text-brand-700 hover:underline"
                >
                  order #{shortOrderId(other.orderId)}
                </Link>
                <span className="text-xs text-slate-500">{formatDateTime(other.createdAt)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {orders.length === 0 && !others && Object.keys(evidence).length === 0 && (
        <EmptyState title="No evidence recorded." />
      )}
    </Panel>
  );
}

/** Sends one change with its own Idempotency-Key: a double click changes the case once. */
function useCaseChange(caseId: string, onDone: () => void) {
  const update = useUpdateCase(caseId);
  const keys = useIdempotencyKeys();
  const running = useRef(false);
  const send = (change: CaseUpdateRequest) => {
    if (running.current) return;
    running.current = true;
    update.mutate(
      { change, idempotencyKey: keys.keyFor(change) },
      {
        onSettled: (_answer, error) => {
          running.current = false;
          keys.settle(error ?? undefined);
        },
        onSuccess: (answer) => {
          toast.success(answer.message);
          onDone();
        },
      },
    );
  };
  return { send, update };
}

const noteFormSchema = z.object({ note: reasonSchema('Write a note of at least 3 characters.') });

function NoteDialog({
  monitoringCase: c,
  status,
  onClose,
}: {
  monitoringCase: CaseDetail;
  status: CaseStatus;
  onClose: () => void;
}) {
  const { send, update } = useCaseChange(c.id, onClose);
  const form = useZodForm(noteFormSchema, { defaultValues: { note: '' } });
  const submit = form.handleSubmit(({ note }) => send({ status, note }));
  const copy =
    status === c.status
      ? {
          title: 'Add a note',
          confirm: 'Add note',
          lines: ['The note is kept with the case and in the audit log.'],
        }
      : status === 'reviewing'
        ? {
            title: 'Start the review',
            confirm: 'Start review',
            lines: [
              'The case becomes Under review.',
              'Your note and the change are recorded in the audit log.',
            ],
          }
        : {
            title: 'Put the case back to open',
            confirm: 'Back to open',
            lines: [
              'The case becomes Open again.',
              'Your note and the change are recorded in the audit log.',
            ],
          };
  return (
    <ActionDialog
      open
      onClose={onClose}
      title={copy.title}
      description="The customer is never told about a case."
      consequences={copy.lines}
      confirmLabel={copy.confirm}
      busy={update.isPending}
      error={update.error ? errorMessage(update.error) : null}
      onSubmit={() => void submit()}
    >
      <TextAreaField label="Note" {...form.textField('note')} maxLength={2000} rows={4} data-autofocus />
    </ActionDialog>
  );
}

/** Today as the reviewer's calendar shows it (YYYY-MM-DD). */
function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const closeFormSchema = z
  .object({
    // An unchosen radio group reads as null.
    outcome: z.string().nullable(),
    note: reasonSchema('Write a note of at least 3 characters.'),
    sarFiledAt: z.string().trim(),
    sarReference: z.string().trim().max(100, { error: 'Keep the SAR reference under 100 characters.' }),
  })
  .superRefine((values, ctx) => {
    if (values.outcome !== 'no_action' && values.outcome !== 'sar_filed') {
      ctx.addIssue({ code: 'custom', path: ['outcome'], message: CASE_MESSAGES.outcomeNeeded });
    }
    if (values.outcome !== 'sar_filed') return;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(values.sarFiledAt)) {
      ctx.addIssue({ code: 'custom', path: ['sarFiledAt'], message: 'Give the date the SAR was filed.' });
    } else if (values.sarFiledAt > localToday()) {
      ctx.addIssue({ code: 'custom', path: ['sarFiledAt'], message: CASE_MESSAGES.sarDateInFuture });
    }
    if (!values.sarReference) {
      ctx.addIssue({ code: 'custom', path: ['sarReference'], message: 'Give the SAR reference.' });
    }
  });

function CloseDialog({ monitoringCase: c, onClose }: { monitoringCase: CaseDetail; onClose: () => void }) {
  const { send, update } = useCaseChange(c.id, onClose);
  const form = useZodForm(closeFormSchema, {
    defaultValues: { outcome: '', note: '', sarFiledAt: '', sarReference: '' },
  });
  const outcome = form.watch('outcome');
  const outcomeError = form.formState.errors.outcome?.message;
  const submit = form.handleSubmit((values) =>
    send(
      values.outcome === 'sar_filed'
        ? {
            status: 'closed',
            outcome: 'sar_filed',
            note: values.note,
            sarFiledAt: values.sarFiledAt,
            sarReference: values.sarReference,
          }
        : { status: 'closed', outcome: 'no_action', note: values.note },
    ),
  );
  return (
    <ActionDialog
      open
      onClose={onClose}
      title="Close the case"
      description="Choose the outcome. A closed case cannot change again."
      consequences={[
        'The case becomes Closed with your outcome.',
        'Your note and the outcome are recorded in the audit log.',
      ]}
      confirmLabel="Close case"
      busy={update.isPending}
      error={update.error ? errorMessage(update.error) : null}
      onSubmit={() => void submit()}
    >
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">Outcome</legend>
        <div className="mt-1.5 grid grid-cols-1 gap-2 sm:grid-cols-2">
          {(['no_action', 'sar_filed'] as const).map((value) => (
            <label
              key={value}
              className={`flex cursor-pointer items-center gap-2 rounded-xl px-3 py-2.5 text-sm ring-1 ${
                outcome === value ? 'bg-brand-50 font-semibold text-ink-900 ring-brand-400' : 'ring-slate-300'
              }`}
            >
              <input
                type="radio"
                value={value}
                {...form.register('outcome', { onChange: () => form.clearErrors('outcome') })}
                className="size-4 accent-brand-600"
              />
              {CASE_OUTCOME_LABEL[value]}
            </label>
          ))}
        </div>
        {outcomeError && <p className="mt-1.5 text-sm text-red-600">{outcomeError}</p>}
      </fieldset>
      {outcome === 'sar_filed' && (
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <TextField label="SAR filed on" type="date" max={localToday()} {...form.textField('sarFiledAt')} />
          <TextField label="SAR reference" {...form.textField('sarReference')} maxLength={100} />
        </div>
      )}
      <TextAreaField label="Note" {...form.textField('note')} maxLength={2000} rows={3} />
    </ActionDialog>
  );
}
