import { zelleEmailSchema } from '@offzero/shared/api/user-settings';
import { ApiError } from '../../../lib/api-client';
import { useSaveZelleEmail } from '../../../domain/user-settings';
import { SingleFieldSettingModal } from './single-field-setting-modal';

/**
 * Add or change the e-mail address Zelle payments are sent to when the customer sells. Required, else
 * 'Enter zelle payment email.', and an e-mail shape (name@example.com): the shared rule the server applies.
 */
export function ZelleEmailModal({
  open,
  onClose,
  zelleEmail,
}: {
  open: boolean;
  onClose: () => void;
  zelleEmail: string | null;
}) {
  const save = useSaveZelleEmail();
  return (
    <SingleFieldSettingModal
      open={open}
      onClose={onClose}
      title={zelleEmail ? 'Edit Zelle payment email' : 'Add Zelle payment email'}
      description="When you sell bitcoin and choose Zelle, we pay the dollars to this address."
      initial={zelleEmail ?? ''}
      saving={save.isPending}
      schema={zelleEmailSchema}
      save={(value, callbacks) => save.mutate(value, callbacks)}
      fieldError={(failure) =>
        failure instanceof ApiError && failure.errors?.zelleEmail ? failure.errors.zelleEmail : null
      }
      field={{
        label: 'Zelle payment email',
        type: 'email',
        name: 'zelleEmail',
        autoComplete: 'email',
        placeholder: 'you@example.com',
        maxLength: 254,
        hint: 'The email address registered with Zelle at your bank.',
      }}
    />
  );
}
