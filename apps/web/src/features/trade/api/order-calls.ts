import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { orderResponseSchema, type SaveOrderRequest } from '@offzero/shared/api/orders';
import { apiPost, hasErrorCode } from '../../../lib/api-client';
import { priceQueryKey } from './get-price';
import { tradeSettingsQueryKey } from './get-trade-settings';
import { ordersQueryKey } from '../../../lib/orders';

/**
 * The order calls of the trade widget (spec section 7): save, re-quote a pending order, submit a
 * manual payment, add a bank reference. Every answer is `{ message, order }`; each success marks the
 * cached order lists stale so My Orders and Recent Orders show the change.
 */

export type SellPayoutMethod = 'zelle' | 'ach' | 'wire';

export function saveOrder(body: SaveOrderRequest) {
  return apiPost('/order/save', body, { schema: orderResponseSchema });
}

/** A pending order confirmed again: the full order with the new quote. */
export function requoteOrder(body: SaveOrderRequest & { _id: string }) {
  return apiPost('/order/update', body, { schema: orderResponseSchema });
}

export interface ManualPaymentInput {
  orderId: string;
  method: SellPayoutMethod;
  amount: number;
}

/** The customer chose Zelle, ACH or wire: the order moves to processing and carries our details to pay. */
export function submitManualPayment({ orderId, method, amount }: ManualPaymentInput) {
  return apiPost(
    '/order/update',
    {
      _id: orderId,
      payment: { method, amount, create_time: new Date().toISOString() },
      status: 'processing',
    },
    { schema: orderResponseSchema },
  );
}

const bankReferenceAnswerSchema = z.object({ message: z.string(), order: z.unknown().optional() });

export function addBankReference({ orderId, bankTxn }: { orderId: string; bankTxn: string }) {
  return apiPost('/order/update', { _id: orderId, bankTxn }, { schema: bankReferenceAnswerSchema });
}

function useInvalidateOrders() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ordersQueryKey });
}

/**
 * Saves a new order, or re-quotes the pending one when `orderId` is given. A refused quote (code
 * PRICE_CHANGED) reads the price and the fee settings again, so the next quote on screen is the
 * one the server will accept.
 */
export function useSaveOrder() {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateOrders();
  return useMutation({
    mutationFn: ({ body, orderId }: { body: SaveOrderRequest; orderId?: string | null }) =>
      orderId ? requoteOrder({ ...body, _id: orderId }) : saveOrder(body),
    onSuccess: () => invalidate(),
    onError: (error) => {
      if (hasErrorCode(error, 'PRICE_CHANGED')) {
        void queryClient.invalidateQueries({ queryKey: priceQueryKey });
        void queryClient.invalidateQueries({ queryKey: tradeSettingsQueryKey });
      }
    },
  });
}

export function useSubmitManualPayment() {
  const invalidate = useInvalidateOrders();
  return useMutation({ mutationFn: submitManualPayment, onSuccess: () => invalidate() });
}

export function useAddBankReference() {
  const invalidate = useInvalidateOrders();
  return useMutation({ mutationFn: addBankReference, onSuccess: () => invalidate() });
}
