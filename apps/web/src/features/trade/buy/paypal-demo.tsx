import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import type { Order } from '@offzero/shared/api/orders';
import { errorMessage, hasErrorCode } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { capturePayPalPayment, createPayPalPayment, decideDemoPayPal } from '../api/paypal';
import { formatUsdNumber } from '../../../lib/format';
import { PayPalButtonFace } from './paypal-button-face';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';

/**
 * Demo mode's stand-in for PayPal's window (docs/design.md): 'Pay with PayPal' creates the PayPal
 * order on our server as in production; instead of PayPal's pop-up a small sandbox panel approves or
 * cancels it, and approval is captured by our server exactly as a real one would be.
 */
export function PayPalDemo({
  order,
  onPaid,
  onFailure,
  disabled,
}: {
  order: Order;
  onPaid: (answer: { message: string; order: Order }) => void;
  onFailure: (error: unknown) => void;
  disabled: boolean;
}) {
  const [paypalOrderId, setPaypalOrderId] = useState<string | null>(null);
  // One key per Pay with PayPal: a double click creates one PayPal order.
  const createKeys = useIdempotencyKeys();

  const create = useMutation({
    mutationFn: () => createPayPalPayment(order._id, createKeys.keyFor(order._id)),
    onSuccess: (id) => setPaypalOrderId(id),
    onError: onFailure,
    onSettled: (_id, error) => createKeys.settle(error ?? undefined),
  });
  const approve = useMutation({
    mutationFn: async (id: string) => {
      await decideDemoPayPal(id, 'approve');
      // One capture per PayPal order, however often it is tried.
      return capturePayPalPayment(id, order._id, `capture-${id}`);
    },
    onSuccess: onPaid,
    onError: (error) => {
      // A refused capture leaves this PayPal order unusable; the customer starts again.
      if (!hasErrorCode(error, 'NETWORK_ERROR')) setPaypalOrderId(null);
      onFailure(error);
    },
  });
  const cancel = useMutation({
    mutationFn: (id: string) => decideDemoPayPal(id, 'cancel'),
    onSuccess: (answer) => {
      setPaypalOrderId(null);
      toast(answer.message);
    },
    onError: (error) => toast.error(errorMessage(error)),
  });

  if (!paypalOrderId) {
    return (
      <PayPalButtonFace
        onClick={() => {
          if (!create.isPending) create.mutate();
        }}
        loading={create.isPending}
        disabled={disabled}
      />
    );
  }

  return (
    <section
      aria-labelledby={`sandbox-${paypalOrderId}`}
      className="rounded-2xl border border-dashed border-sky-300 bg-sky-50/70 p-4"
    >
      <h4 id={`sandbox-${paypalOrderId}`} className="text-sm font-semibold text-sky-900">
        PayPal sandbox (demo)
      </h4>
      <p className="mt-1 text-sm text-sky-900/80">
        In production PayPal&apos;s own window opens here. Approve paying{' '}
        <strong className="font-semibold">{formatUsdNumber(order.value)}</strong> to OffZero?
      </p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <Button
          onClick={() => approve.mutate(paypalOrderId)}
          loading={approve.isPending}
          disabled={cancel.isPending}
          className="sm:flex-1"
        >
          Approve payment
        </Button>
        <Button
          variant="outline"
          onClick={() => cancel.mutate(paypalOrderId)}
          loading={cancel.isPending}
          disabled={approve.isPending}
          className="sm:flex-1"
        >
          Cancel
        </Button>
      </div>
    </section>
  );
}
