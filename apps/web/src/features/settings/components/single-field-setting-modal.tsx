import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { errorMessage } from '../../../lib/api-client';
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
  /** The message to show for the typed value, or null when it may be saved. */
  validate: (value: string) => string | null;
  /** Sends the trimmed value; calls back with the server's answer. */
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
  validate,
  save,
  fieldError,
  field,
  onSaved,
}: Pick<SingleFieldSettingModalProps, 'initial' | 'validate' | 'save' | 'fieldError' | 'field'> & {
  formId: string;
  onSaved: () => void;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validate(value);
    setError(found);
    if (found) {
      toast.error(found);
      return;
    }
    save(value.trim(), {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onSaved();
      },
      onError: (failure) => {
        setError(fieldError(failure));
        toast.error(errorMessage(failure));
      },
    });
  }

  return (
    <form id={formId} noValidate onSubmit={submit}>
      <TextField
        {...field}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
        }}
        error={error}
      />
    </form>
  );
}
