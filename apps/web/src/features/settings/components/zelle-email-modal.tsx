import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { ZELLE_EMAIL_MESSAGE, zelleEmailSchema } from '@offzero/shared/api/user-settings';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { useSaveZelleEmail } from '../api/user-settings';

/** Required, else 'Enter zelle payment email.'; no format check (spec section 5). */
export function zelleEmailError(value: string): string | null {
  const parsed = zelleEmailSchema.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? ZELLE_EMAIL_MESSAGE);
}

/** Add or change the e-mail address Zelle payments are sent to when the customer sells. */
export function ZelleEmailModal({
  open,
  onClose,
  zelleEmail,
}: {
  open: boolean;
  onClose: () => void;
  zelleEmail: string | null;
}) {
  const formId = useId();
  const save = useSaveZelleEmail();
  return (
    <Modal
      open={open}
      onClose={onClose}
      dismissible={!save.isPending}
      title={zelleEmail ? 'Edit Zelle payment email' : 'Add Zelle payment email'}
      description="When you sell bitcoin and choose Zelle, we pay the dollars to this address."
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={save.isPending}>
            Save
          </Button>
        </>
      }
    >
      <ZelleForm formId={formId} initial={zelleEmail ?? ''} save={save} onSaved={onClose} />
    </Modal>
  );
}

function ZelleForm({
  formId,
  initial,
  save,
  onSaved,
}: {
  formId: string;
  initial: string;
  save: ReturnType<typeof useSaveZelleEmail>;
  onSaved: () => void;
}) {
  const [value, setValue] = useState(initial);
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = zelleEmailError(value);
    setError(found);
    if (found) {
      toast.error(found);
      return;
    }
    save.mutate(value.trim(), {
      onSuccess: (answer) => {
        toast.success(answer.message);
        onSaved();
      },
      onError: (failure) => {
        if (failure instanceof ApiError && failure.errors?.zelleEmail) setError(failure.errors.zelleEmail);
        toast.error(errorMessage(failure));
      },
    });
  }

  return (
    <form id={formId} noValidate onSubmit={submit}>
      <TextField
        label="Zelle payment email"
        type="email"
        name="zelleEmail"
        autoComplete="email"
        placeholder="you@example.com"
        maxLength={254}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
        }}
        error={error}
        hint="The email address registered with Zelle at your bank."
      />
    </form>
  );
}
