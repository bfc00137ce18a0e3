import { useRef } from 'react';
import type { CaseUpdateRequest } from '@offzero/shared/api/cases';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { toast } from '../../../lib/toast';
import { useUpdateCase } from '../api/update-case';

/** Sends one change with its own Idempotency-Key: a double click changes the case once. */
export function useCaseChange(caseId: string, onDone: () => void) {
  const update = useUpdateCase(caseId);
  const keys = useIdempotencyKeys();
  const running = useRef(false);
  const send = (change: CaseUpdateRequest) => {
    if (running.current) return;
    running.current = true;
    update.mutate(
      { change, idempotencyKey: keys.keyFor(change) },
      {
        onSettled: (_answer, error) => {
          running.current = false;
          keys.settle(error ?? undefined);
        },
        onSuccess: (answer) => {
          toast.success(answer.message);
          onDone();
        },
      },
    );
  };
  return { send, update };
}
