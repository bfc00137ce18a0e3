import { useMutation, useQueryClient } from '@tanstack/react-query';
import { orderResponseSchema } from '@offzero/shared/api/orders';
import { apiPost } from '../../../lib/api-client';
import { ordersQueryKey } from '../../../domain/orders';

/**
 * A failed Lightning payout of a buy (docs/design.md, "Lightning"): `POST /api/lightning/payouts/:id/retry`
 * pays the invoice again, `…/onchain` `{ payoutAddressId }` pays the order on chain to an entry of the
 * address book instead. Each answers `{ message, order }`; every order list reloads.
 */
export type LightningPayoutAction = { kind: 'retry' } | { kind: 'onchain'; payoutAddressId: string };

export function useLightningPayoutAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      orderId,
      action,
      idempotencyKey,
    }: {
      orderId: string;
      action: LightningPayoutAction;
      idempotencyKey: string;
    }) =>
      apiPost(
        `/lightning/payouts/${encodeURIComponent(orderId)}/${action.kind}`,
        action.kind === 'retry' ? {} : { payoutAddressId: action.payoutAddressId },
        { schema: orderResponseSchema, idempotencyKey },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ordersQueryKey }),
  });
}
