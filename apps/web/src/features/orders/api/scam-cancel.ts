import { useMutation, useQueryClient } from '@tanstack/react-query';
import { orderResponseSchema } from '@offzero/shared/api/orders';
import { apiPost } from '../../../lib/api-client';
import { ordersQueryKey } from '../../../domain/orders';

/**
 * `POST /api/order/:id/scam-cancel`: "Cancel — I think this is a scam" (docs/design.md, "Places and the
 * scam shield"); every order list reloads.
 */
export function useScamCancel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ orderId, idempotencyKey }: { orderId: string; idempotencyKey: string }) =>
      apiPost(
        `/order/${encodeURIComponent(orderId)}/scam-cancel`,
        {},
        { schema: orderResponseSchema, idempotencyKey },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ordersQueryKey }),
  });
}
