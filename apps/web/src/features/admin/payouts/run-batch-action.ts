import { errorMessage } from '../../../lib/api-client';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { usePayoutBatchAction, type PayoutBatchAction } from '../api/payout-batch-action';

/**
 * Runs a change of a batch under an idempotency key per change (lib/idempotency-key.ts: a double click
 * or a retry acts once); an error goes to the caller's own place for it, and the answer is null.
 */
export function useRunBatchAction() {
  const action = usePayoutBatchAction();
  const keys = useIdempotencyKeys();
  const run = async (change: PayoutBatchAction, onError: (message: string | null) => void) => {
    onError(null);
    try {
      const answer = await action.mutateAsync({ action: change, idempotencyKey: keys.keyFor(change) });
      keys.settle();
      return answer;
    } catch (error) {
      keys.settle(error);
      onError(errorMessage(error));
      return null;
    }
  };
  return { run, action };
}

export type RunBatchAction = ReturnType<typeof useRunBatchAction>['run'];
