import { useId } from 'react';
import { toast } from '../../../lib/toast';
import { z } from 'zod';
import { personNameSchema, type User } from '@offzero/shared/api/accounts';
import { errorMessage } from '../../../lib/api-client';
import { applyServerErrors, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { usePhoneNumberText } from '../../../components/ui/phone-number-display';
import { TextField } from '../../../components/ui/text-field';
import { useUpdateProfile } from '../api/update-profile';

/** The names, by the shared rules of `POST /api/user/profile` (profileUpdateSchema). */
const profileFormSchema = z.object({
  firstName: personNameSchema('first name'),
  lastName: personNameSchema('last name'),
});

/** Edit first and last name; e-mail and phone are shown but cannot be changed here. */
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
  const form = useZodForm(profileFormSchema, {
    defaultValues: { firstName: user.firstName, lastName: user.lastName },
  });

  const submit = form.handleSubmit(({ firstName, lastName }) =>
    update.mutate(
      { firstName, lastName, email: user.email },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onSaved();
        },
        onError: (error) => {
          applyServerErrors(form, error, ['firstName', 'lastName']);
          toast.error(errorMessage(error));
        },
      },
    ),
  );

  const phone = usePhoneNumberText(user.phoneNumber);
  return (
    <form id={formId} noValidate onSubmit={(event) => void submit(event)} className="space-y-4">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="First name"
          autoComplete="given-name"
          maxLength={60}
          {...form.textField('firstName')}
        />
        <TextField
          label="Last name"
          autoComplete="family-name"
          maxLength={60}
          {...form.textField('lastName')}
        />
      </div>
      <TextField label="Email" value={user.email} readOnly hint="Contact support to change your email." />
      <TextField
        label="Phone"
        value={phone || 'Not added yet'}
        readOnly
        hint="Verify a new number from the dashboard."
      />
    </form>
  );
}
