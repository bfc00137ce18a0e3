import { useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast';
import { CANCEL_REASON_MESSAGES, cancelOrderSchema, type Order } from '@offzero/shared/api/orders';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { TextField } from '../../../components/ui/text-field';
import { errorMessage } from '../../../lib/api-client';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { orderNumber } from '../../../lib/format';
import { useCancelOrder } from '../api/cancel-order';

/**
 * "Cancel order" on a pending order (docs/design.md): a small dialog asks why, then the server cancels
 * it. While the call runs the buttons are disabled and the dialog cannot be dismissed.
 */
export function CancelOrderButton({ order }: { order: Order }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="danger" size="sm" onClick={() => setOpen(true)}>
        Cancel order
      </Button>
      {open && <CancelOrderDialog order={order} onClose={() => setOpen(false)} />}
    </>
  );
}

function CancelOrderDialog({ order, onClose }: { order: Order; onClose: () => void }) {
  const cancel = useCancelOrder();
  const keys = useIdempotencyKeys();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const formId = `cancel-order-${order._id}`;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (cancel.isPending) return;
    const parsed = cancelOrderSchema.safeParse({ _id: order._id, reason });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? CANCEL_REASON_MESSAGES.short);
      return;
    }
    setError(null);
    cancel.mutate(
      { ...parsed.data, idempotencyKey: keys.keyFor(parsed.data) },
      {
        onSuccess: (answer) => {
          toast.success(answer.message);
          onClose();
        },
        onError: (failure) => setError(errorMessage(failure)),
        onSettled: (_answer, failure) => keys.settle(failure ?? undefined),
      },
    );
  }

  return (
    <Modal
      open
      onClose={onClose}
      dismissible={!cancel.isPending}
      size="sm"
      title={`Cancel order #${orderNumber(order._id)}?`}
      description="The order will be closed and cannot be paid or completed afterwards."
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={cancel.isPending}>
            Keep order
          </Button>
          <Button type="submit" form={formId} variant="danger" loading={cancel.isPending}>
            Cancel order
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <TextField
          label="Why do you cancel?"
          name="reason"
          value={reason}
          maxLength={500}
          autoComplete="off"
          onChange={(event) => setReason(event.target.value)}
          error={error}
          hint="Between 3 and 500 characters."
        />
      </form>
    </Modal>
  );
}
