import { useId, useMemo } from 'react';
import { toast } from '../../../lib/toast';
import { z } from 'zod';
import { errorMessage } from '../../../lib/api-client';
import { fieldError as messageOf, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField, type TextFieldProps } from '../../../components/ui/text-field';

type SaveCallbacks = {
  onSuccess: (answer: { message: string }) => void;
  onError: (failure: Error) => void;
};

export interface SingleFieldSettingModalProps {
  open: boolean;
  onClose: () => void;
  title: string;
  description: string;
  /** The stored value the field starts with ('' when none). */
  initial: string;
  saving: boolean;
  /** The rule the typed value must pass (a shared schema); its output is what is saved (trimmed). */
  schema: z.ZodType<string, string>;
  /** Sends the checked value; calls back with the server's answer. */
  save: (value: string, callbacks: SaveCallbacks) => void;
  /** What to show under the field when the save fails (the failure is always toasted). */
  fieldError: (failure: Error) => string | null;
  /** The text field's own props (label, name, hint, ...). */
  field: Omit<TextFieldProps, 'value' | 'onChange' | 'error'>;
}

/** A settings modal with one text field: validate, save, close. */
export function SingleFieldSettingModal({
  open,
  onClose,
  title,
  description,
  saving,
  ...form
}: SingleFieldSettingModalProps) {
  const formId = useId();
  return (
    <Modal
      open={open}
      onClose={onClose}
      dismissible={!saving}
      title={title}
      description={description}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={saving}>
            Save
          </Button>
        </>
      }
    >
      <SingleFieldForm formId={formId} onSaved={onClose} {...form} />
    </Modal>
  );
}

function SingleFieldForm({
  formId,
  initial,
  schema,
  save,
  fieldError,
  field,
  onSaved,
}: Pick<SingleFieldSettingModalProps, 'initial' | 'schema' | 'save' | 'fieldError' | 'field'> & {
  formId: string;
  onSaved: () => void;
}) {
  const formSchema = useMemo(() => z.object({ value: schema }), [schema]);
  const form = useZodForm(formSchema, { defaultValues: { value: initial } });

  const submit = form.handleSubmit(
    ({ value }) =>
      save(value, {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onSaved();
        },
        onError: (failure) => {
          const message = fieldError(failure);
          if (message) form.setError('value', { type: 'server', message });
          toast.error(errorMessage(failure));
        },
      }),
    (errors) => {
      const found = messageOf(errors, 'value');
      if (found) toast.error(found);
    },
  );

  return (
    <form id={formId} noValidate onSubmit={(event) => void submit(event)}>
      <TextField
        {...field}
        value={form.watch('value')}
        onChange={(event) => {
          form.setValue('value', event.target.value);
          form.clearOnEdit('value');
        }}
        error={form.errorOf('value')}
      />
    </form>
  );
}
