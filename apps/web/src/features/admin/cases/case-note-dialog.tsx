import { z } from 'zod';
import type { CaseDetail, CaseStatus } from '@offzero/shared/api/cases';
import { errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/forms';
import { ActionDialog, reasonSchema, TextAreaField } from '../components/action-dialog';
import { useCaseChange } from './use-case-change';

const noteFormSchema = z.object({ note: reasonSchema('Write a note of at least 3 characters.') });

export function NoteDialog({
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
