import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  payoutAddressListSchema,
  payoutAddressMessageSchema,
  type AddPayoutAddressRequest,
} from '@offzero/shared/api/payout-addresses';
import { apiDelete, apiGet, apiPost } from '../../../lib/api-client';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { useSession } from '../../../lib/session';

// The payout address book (DESIGN.md 7.11): GET /api/payout-addresses and the calls that change it.
// Every change answers the entry as stored, and the list is read again afterwards.

export const payoutAddressesQueryKey = (userId: string) => ['payout-addresses', userId] as const;

export function payoutAddressesQueryOptions(userId: string) {
  return queryOptions({
    queryKey: payoutAddressesQueryKey(userId),
    queryFn: async ({ signal }) =>
      (await apiGet('/payout-addresses', { schema: payoutAddressListSchema, signal })).payoutAddresses,
    staleTime: 0,
  });
}

export function usePayoutAddresses() {
  const session = useSession();
  return useQuery({ ...payoutAddressesQueryOptions(session?.userId ?? ''), enabled: session !== null });
}

function useRefreshBook() {
  const queryClient = useQueryClient();
  const session = useSession();
  return () => queryClient.invalidateQueries({ queryKey: payoutAddressesQueryKey(session?.userId ?? '') });
}

const answer = { schema: payoutAddressMessageSchema };

export function useAddPayoutAddress() {
  const refresh = useRefreshBook();
  return useMutation({
    mutationFn: (body: AddPayoutAddressRequest) =>
      apiPost('/payout-addresses', body, { ...answer, idempotencyKey: newIdempotencyKey() }),
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
