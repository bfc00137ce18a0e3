import { useId, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { formatPhoneNumberIntl } from 'react-phone-number-input/max';
import { personNameSchema, type User } from '@offzero/shared/api/accounts';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { useUpdateProfile } from '../api/update-profile';

const firstNameSchema = personNameSchema('first name');
const lastNameSchema = personNameSchema('last name');

type NameErrors = { firstName?: string; lastName?: string };

/** Edit first and last name; e-mail and phone are shown but cannot be changed here (spec section 5). */
export function EditProfileModal({
  user,
  open,
  onClose,
}: {
  user: User;
  open: boolean;
  onClose: () => void;
}) {
  const formId = useId();
  const update = useUpdateProfile();
  return (
    <Modal
      open={open}
      onClose={onClose}
      dismissible={!update.isPending}
      title="Edit personal information"
      description="Use your legal name: it must match your identity document and bank account."
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} loading={update.isPending}>
            Save
          </Button>
        </>
      }
    >
      <ProfileForm formId={formId} user={user} update={update} onSaved={onClose} />
    </Modal>
  );
}

function ProfileForm({
  formId,
  user,
  update,
  onSaved,
}: {
  formId: string;
  user: User;
  update: ReturnType<typeof useUpdateProfile>;
  onSaved: () => void;
}) {
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [errors, setErrors] = useState<NameErrors>({});

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const first = firstNameSchema.safeParse(firstName);
    const last = lastNameSchema.safeParse(lastName);
    const found: NameErrors = {
      firstName: first.success ? undefined : first.error.issues[0]?.message,
      lastName: last.success ? undefined : last.error.issues[0]?.message,
    };
    setErrors(found);
    if (!first.success || !last.success) return;
    update.mutate(
      { firstName: first.data, lastName: last.data, email: user.email },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onSaved();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.errors) {
            setErrors({ firstName: error.errors.firstName, lastName: error.errors.lastName });
          }
          toast.error(errorMessage(error));
        },
      },
    );
  }

  return (
    <form id={formId} noValidate onSubmit={submit} className="space-y-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="First name"
          name="firstName"
          autoComplete="given-name"
          maxLength={60}
          value={firstName}
          onChange={(event) => {
            setFirstName(event.target.value);
            setErrors((current) => ({ ...current, firstName: undefined }));
          }}
          error={errors.firstName}
        />
        <TextField
          label="Last name"
          name="lastName"
          autoComplete="family-name"
          maxLength={60}
          value={lastName}
          onChange={(event) => {
            setLastName(event.target.value);
            setErrors((current) => ({ ...current, lastName: undefined }));
          }}
          error={errors.lastName}
        />
      </div>
      <TextField label="Email" value={user.email} readOnly hint="Contact support to change your email." />
      <TextField
        label="Phone"
        value={
          user.phoneNumber ? formatPhoneNumberIntl(user.phoneNumber) || user.phoneNumber : 'Not added yet'
        }
        readOnly
        hint="Verify a new number from the dashboard."
      />
    </form>
  );
}
