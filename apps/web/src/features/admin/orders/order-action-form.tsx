import { useMemo, useRef } from 'react';
import type { AdminOrder } from '@offzero/shared/api/admin';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useZodForm } from '../../../lib/forms';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { toast } from '../../../lib/toast';
import { useOrderAction } from '../api/run-order-action';
import { ActionDialog } from '../components/action-dialog';
import { ActionFields, describeAction } from './order-action-content';
import { COPY } from './order-action-copy';
import { actionFormSchema, type OrderActionKind } from './order-actions';

/** The confirmation of one action: what it does, its fields, and the one request it sends. */
export function ActionForm({
  kind,
  order,
  onClose,
  onAwaiting,
}: {
  kind: OrderActionKind;
  order: AdminOrder;
  onClose: () => void;
  onAwaiting: (note: string) => void;
}) {
  const action = useOrderAction(order._id);
  // One key per confirmed action: a double click or a retry acts once (a payout is sent once).
  const actionKeys = useIdempotencyKeys();
  const running = useRef(false);
  const schema = useMemo(() => actionFormSchema(kind), [kind]);
  const form = useZodForm(schema, { defaultValues: { text: '', address: '', note: '' } });
  const copy = COPY[kind];

  const submit = form.handleSubmit((body) => {
    if (running.current) return;
    running.current = true;
    action.mutate(
      { kind, body, idempotencyKey: actionKeys.keyFor({ kind, body }) },
      {
        onSettled: (_answer, error) => {
          running.current = false;
          actionKeys.settle(error ?? undefined);
        },
        onSuccess: (answer) => {
          if ('approval' in answer) {
            // Nothing changed yet: another admin must do the same action.
            toast.success('Waiting for a second approver.');
            onAwaiting(`Another admin must confirm this (asked by ${answer.approval.requestedBy}).`);
          } else {
            toast.success(`${answer.message} ${copy.done}`);
          }
          onClose();
        },
      },
    );
  });

  const serverError = action.error
    ? action.error instanceof ApiError && action.error.errors
      ? (Object.values(action.error.errors)[0] ?? action.error.message)
      : errorMessage(action.error)
    : null;

  const { description, consequences } = describeAction(kind, order);

  return (
    <ActionDialog
      open
      onClose={onClose}
      title={copy.title}
      description={description}
      consequences={consequences}
      confirmLabel={copy.confirm}
      tone={copy.tone}
      busy={action.isPending}
      error={serverError}
      onSubmit={() => void submit()}
    >
      <ActionFields kind={kind} form={form} />
    </ActionDialog>
  );
}
