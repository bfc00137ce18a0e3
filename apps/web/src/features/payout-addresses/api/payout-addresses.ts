import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  payoutAddressMessageSchema,
  type AddPayoutAddressRequest,
} from '@offzero/shared/api/payout-addresses';
import { apiDelete, apiPost } from '../../../lib/api-client';
import { withPasskeyStepUp } from '../../../lib/passkey-step-up';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { payoutAddressesQueryKey } from '../../../domain/payout-addresses';
import { useSession } from '../../../lib/session';

// The calls that change the payout address book (docs/design.md); the list itself is read through
// domain/payout-addresses. Every change answers the entry as stored, and the list is read again afterwards.

function useRefreshBook() {
  const queryClient = useQueryClient();
  const session = useSession();
  return () => queryClient.invalidateQueries({ queryKey: payoutAddressesQueryKey(session?.userId ?? '') });
}

const answer = { schema: payoutAddressMessageSchema };

export function useAddPayoutAddress() {
  const refresh = useRefreshBook();
  return useMutation({
    mutationFn: (body: AddPayoutAddressRequest) => {
      const idempotencyKey = newIdempotencyKey();
      const { label, address, xpub } = body;
      // With a passkey, the server asks for it; the same call then goes again with the assertion.
      return withPasskeyStepUp('payout-address.add', { label, address, xpub }, (headers) =>
        apiPost('/payout-addresses', body, { ...answer, idempotencyKey, headers }),
      );
    },
    onSuccess: () => refresh(),
  });
}

export function useConfirmPayoutAddress() {
  const refresh = useRefreshBook();
  return useMutation({
    mutationFn: ({ id, token }: { id: string; token: string }) =>
      apiPost(`/payout-addresses/${encodeURIComponent(id)}/confirm`, { token }, answer),
    onSuccess: () => refresh(),
  });
}

export function useResendConfirmation() {
  return useMutation({
    mutationFn: (id: string) =>
      apiPost(`/payout-addresses/${encodeURIComponent(id)}/resend`, undefined, {
        ...answer,
        idempotencyKey: newIdempotencyKey(),
      }),
  });
}

export function useProveOwnership() {
  const refresh = useRefreshBook();
  return useMutation({
    mutationFn: ({ id, signature }: { id: string; signature: string }) =>
      apiPost(`/payout-addresses/${encodeURIComponent(id)}/proof`, { signature }, answer),
    onSuccess: () => refresh(),
  });
}

export function useRemovePayoutAddress() {
  const refresh = useRefreshBook();
  return useMutation({
    mutationFn: (id: string) => apiDelete(`/payout-addresses/${encodeURIComponent(id)}`, answer),
    onSuccess: () => refresh(),
  });
}
