import { z } from 'zod';
import { CASE_MESSAGES, type CaseDetail } from '@offzero/shared/api/cases';
import { errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/forms';
import { TextField } from '../../../components/ui/text-field';
import { ActionDialog, reasonSchema, TextAreaField } from '../components/action-dialog';
import { CASE_OUTCOME_LABEL } from './case-words';
import { useCaseChange } from './use-case-change';

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

export function CloseDialog({
  monitoringCase: c,
  onClose,
}: {
  monitoringCase: CaseDetail;
  onClose: () => void;
}) {
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
