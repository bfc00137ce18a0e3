import { z } from 'zod';
import type { CustomerDetail } from '@offzero/shared/api/admin';
import { errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/forms';
import { toast } from '../../../lib/toast';
import { useSetCustomerEnabled } from '../api/set-customer-enabled';
import { useSetCustomerTier } from '../api/set-customer-tier';
import { ActionDialog, reasonSchema, TextAreaField } from '../components/action-dialog';

const enableFormSchema = z.object({ reason: reasonSchema('Give a reason of at least 3 characters.') });

export type AccessAction = 'disable' | 'enable' | 'restrict' | 'lift-restriction';

const ACCESS_COPY: Record<AccessAction, { title: string; confirm: string; consequences: string[] }> = {
  disable: {
    title: 'Disable this account',
    confirm: 'Disable account',
    consequences: [
      'Every session of this account ends at once.',
      'The customer cannot sign in until the account is re-enabled.',
      'Open orders are not changed: cancel them separately if needed.',
    ],
  },
  enable: {
    title: 'Re-enable this account',
    confirm: 'Re-enable account',
    consequences: ['The customer can sign in again with an e-mail code.'],
  },
  restrict: {
    title: 'Restrict trading',
    confirm: 'Restrict trading',
    consequences: [
      'The customer can still sign in and read everything.',
      'New orders are refused with "Your account is under review. Contact support.".',
      'Your reason is kept on the customer and in the audit log.',
    ],
  },
  'lift-restriction': {
    title: 'Lift the trading restriction',
    confirm: 'Lift restriction',
    consequences: [
      'The customer can place orders again.',
      'Flagged orders keep their flags: resolve them on each order.',
      'Your reason is kept in the audit log.',
    ],
  },
};

export function AccessDialog({
  action,
  detail,
  onClose,
}: {
  action: AccessAction;
  detail: CustomerDetail;
  onClose: () => void;
}) {
  const mutation = useSetCustomerEnabled(detail.user._id);
  const form = useZodForm(enableFormSchema, { defaultValues: { reason: '' } });
  const copy = ACCESS_COPY[action];
  const submit = form.handleSubmit(({ reason }) =>
    mutation.mutate(
      { action, reason },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onClose();
        },
      },
    ),
  );
  return (
    <ActionDialog
      open
      onClose={onClose}
      title={copy.title}
      description={
        action === 'lift-restriction' && detail.user.restrictedReason
          ? `${detail.user.email}: restricted because ${detail.user.restrictedReason}`
          : detail.user.email
      }
      consequences={copy.consequences}
      confirmLabel={copy.confirm}
      tone={action === 'disable' || action === 'restrict' ? 'danger' : 'primary'}
      busy={mutation.isPending}
      error={mutation.error ? errorMessage(mutation.error) : null}
      onSubmit={() => void submit()}
    >
      <TextAreaField label="Reason" {...form.textField('reason')} maxLength={500} data-autofocus />
    </ActionDialog>
  );
}

/** Moves the customer to the other tier of the trading limits, with a reason for the audit log. */
export function TierDialog({ detail, onClose }: { detail: CustomerDetail; onClose: () => void }) {
  const mutation = useSetCustomerTier(detail.user._id);
  const form = useZodForm(enableFormSchema, { defaultValues: { reason: '' } });
  const tier = detail.user.limitTier === 2 ? 1 : 2;
  const submit = form.handleSubmit(({ reason }) =>
    mutation.mutate(
      { tier, reason },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onClose();
        },
      },
    ),
  );
  return (
    <ActionDialog
      open
      onClose={onClose}
      title={`Move to tier ${tier}`}
      description={detail.user.email}
      consequences={[
        `The customer’s trading limits become tier ${tier}’s (Settings → Trading limits).`,
        'Orders already placed keep counting toward the rolling windows.',
        'Your reason is kept in the audit log.',
      ]}
      confirmLabel={`Move to tier ${tier}`}
      tone="primary"
      busy={mutation.isPending}
      error={mutation.error ? errorMessage(mutation.error) : null}
      onSubmit={() => void submit()}
    >
      <TextAreaField label="Reason" {...form.textField('reason')} maxLength={500} data-autofocus />
    </ActionDialog>
  );
}
