import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { orderResponseSchema, type SaveOrderRequest } from '@offzero/shared/api/orders';
import type { BuyFundingRail, SellPayoutRail } from '@offzero/shared/rails/rails';
import { apiPost, hasErrorCode } from '../../../lib/api-client';
import { withPasskeyStepUp } from '../../../lib/passkey-step-up';
import { priceQueryKey } from './get-price';
import { tradeSettingsQueryKey } from './get-trade-settings';
import { ordersQueryKey } from '../../../domain/orders';

/**
 * The order calls of the trade widget: save, re-quote a pending order, submit a
 * manual payment, add a bank reference. Every answer is `{ message, order }`; each success marks the
 * cached order lists stale so My Orders and Recent Orders show the change.
 */

export type SellPayoutMethod = SellPayoutRail;

/** `idempotencyKey`: one per customer action (lib/idempotency-key.ts), so a double click saves once. */
export function saveOrder(body: SaveOrderRequest, idempotencyKey?: string) {
  const walletAddress = body.type === 'buy' ? body.walletAddress?.trim() : undefined;
  if (!walletAddress) return apiPost('/order/save', body, { schema: orderResponseSchema, idempotencyKey });
  // The server asks for the passkey only for a Lightning destination typed for this buy; the same call
  // then goes again with the assertion and the same idempotency key.
  return withPasskeyStepUp('buy.lightning-destination', { walletAddress }, (headers) =>
    apiPost('/order/save', body, { schema: orderResponseSchema, idempotencyKey, headers }),
  );
}

/** A pending order confirmed again: the full order with the new quote. */
export function requoteOrder(body: SaveOrderRequest & { _id: string }, idempotencyKey?: string) {
  return apiPost('/order/update', body, { schema: orderResponseSchema, idempotencyKey });
}

export interface ManualPaymentInput {
  orderId: string;
  method: BuyFundingRail;
  amount: number;
  idempotencyKey?: string;
}

/**
 * The customer chose Zelle, ACH or wire: the order moves to processing and carries our details to pay.
 * The body is the same for every try of one choice (the server records the time itself), so a repeat
 * under the same key is answered, not refused as a different request.
 */
export function submitManualPayment({ orderId, method, amount, idempotencyKey }: ManualPaymentInput) {
  return apiPost(
    '/order/update',
    { _id: orderId, payment: { method, amount }, status: 'processing' },
    { schema: orderResponseSchema, idempotencyKey },
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
    mutationFn: ({
      body,
      orderId,
      idempotencyKey,
    }: {
      body: SaveOrderRequest;
      orderId?: string | null;
      idempotencyKey?: string;
    }) =>
      orderId ? requoteOrder({ ...body, _id: orderId }, idempotencyKey) : saveOrder(body, idempotencyKey),
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
