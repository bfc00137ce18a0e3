import { useMutation, useQueryClient } from '@tanstack/react-query';
import { orderResponseSchema, type CancelOrderRequest } from '@offzero/shared/api/orders';
import { apiPost } from '../../../lib/api-client';
import { ordersQueryKey } from '../../../domain/orders';

export interface CancelOrderInput extends CancelOrderRequest {
  /** One per cancellation (lib/idempotency-key.ts): a double click or a retry cancels once. */
  idempotencyKey: string;
}

/** `POST /api/order/cancel`: the customer cancels their own pending order; every order list reloads. */
export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ idempotencyKey, ...body }: CancelOrderInput) =>
      apiPost('/order/cancel', body, { schema: orderResponseSchema, idempotencyKey }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ordersQueryKey }),
  });
}
