import type { Order } from '@offzero/shared/api/orders';
import { SCAM_MESSAGES } from '@offzero/shared/places/scam-shield';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { toast } from '../../../lib/toast';
import { useScamCancel } from '../api/scam-cancel';

/**
 * A buy in its cooling-off (its bitcoin goes to an address never paid before): until the payout starts
 * the customer may cancel it as a scam, and their dollars go back the way they came.
 */
export function ScamCancelButton({ order }: { order: Order }) {
  const cancel = useScamCancel();
  const keys = useIdempotencyKeys();
  const onClick = () => {
    if (cancel.isPending) return;
    const request = { orderId: order._id };
    cancel.mutate(
      { ...request, idempotencyKey: keys.keyFor(request) },
      {
        onSuccess: (answer) => toast.success(answer.message),
        onError: (failure) => toast.error(errorMessage(failure)),
        onSettled: (_answer, failure) => keys.settle(failure ?? undefined),
      },
    );
  };
  return (
    <Button variant="danger" onClick={onClick} loading={cancel.isPending} data-testid="scam-cancel">
      {SCAM_MESSAGES.cancelLabel}
    </Button>
  );
}
