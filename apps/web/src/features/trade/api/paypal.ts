import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { orderResponseSchema } from '@offzero/shared/api/orders';
import { apiPost } from '../../../lib/api-client';
import { ordersQueryKey } from '../../../domain/orders';

/**
 * PayPal, created and captured by our server (docs/design.md). In demo mode a local sandbox
 * stands in for PayPal's window: the customer approves or cancels with our dev endpoints.
 */

const createdSchema = z.object({ id: z.string() });
const messageSchema = z.object({ message: z.string() });

/** Creates the PayPal order for our order's value; answers PayPal's order id. */
export async function createPayPalPayment(orderId: string, idempotencyKey?: string): Promise<string> {
  return (await apiPost('/payments/paypal/orders', { orderId }, { schema: createdSchema, idempotencyKey }))
    .id;
}

/** Captures the approved PayPal order; the server checks the amount and moves our order to processing. */
export function capturePayPalPayment(paypalOrderId: string, orderId: string, idempotencyKey?: string) {
  return apiPost(
    `/payments/paypal/orders/${encodeURIComponent(paypalOrderId)}/capture`,
    { orderId },
    { schema: orderResponseSchema, idempotencyKey },
  );
}

/** The demo sandbox's buttons (demo mode only). */
export function decideDemoPayPal(paypalOrderId: string, action: 'approve' | 'cancel') {
  return apiPost(`/dev/paypal/orders/${encodeURIComponent(paypalOrderId)}/${action}`, undefined, {
    schema: messageSchema,
  });
}

export function useCapturePayPal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ paypalOrderId, orderId }: { paypalOrderId: string; orderId: string }) =>
      capturePayPalPayment(paypalOrderId, orderId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ordersQueryKey }),
  });
}
