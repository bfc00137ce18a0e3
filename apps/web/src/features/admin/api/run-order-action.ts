import { z } from 'zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { fourEyesPendingSchema, orderActionAnswerSchema } from '@offzero/shared/api/admin';
import { apiPost } from '../../../lib/api-client';
import type { OrderActionKind } from '../orders/order-actions';
import { ADMIN_KEY, enc } from './admin-query';

export interface OrderActionInput {
  kind: OrderActionKind;
  body: Record<string, string>;
  /** One per staff action (lib/idempotency-key.ts): a double click or a retry acts once. */
  idempotencyKey?: string;
}

/** Runs one action on an order; afterwards every console screen reads its data again. */
export function useOrderAction(orderId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, body, idempotencyKey }: OrderActionInput) =>
      apiPost(`/admin/orders/${enc(orderId)}/${kind}`, body, {
        // 202 (four eyes): a large payment or payout waits for a second admin.
        schema: z.union([orderActionAnswerSchema, fourEyesPendingSchema]),
        idempotencyKey,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}
