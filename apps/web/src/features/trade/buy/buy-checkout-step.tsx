import { lazy, Suspense, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import type { Order } from '@offzero/shared/api/orders';
import { BUY_FUNDING_RAILS, findRail, type BuyFundingRail } from '@offzero/shared/rails/rails';
import { useAppConfig } from '../../../lib/app-config';
import { errorMessage, hasErrorCode } from '../../../lib/api-client';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { ordersQueryKey } from '../../../domain/orders';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { useSubmitManualPayment } from '../api/order-calls';
import type { TradeSettings } from '../api/get-trade-settings';
import { CountdownNote } from '../components/countdown-note';
import { ArrivalNote } from '../components/locked-quote';
import { QUOTE_EXPIRED_MESSAGE } from '../utils/messages';
import { MethodTile, NoActiveMethods } from '../components/method-tile';
import { StepHeading } from '../components/step-heading';
import { formatUsdNumber } from '../../../lib/format';
import { PayPalDemo } from './paypal-demo';
import { useFunding } from '../../../domain/funding';

const PayPalCheckout = lazy(() => import('./paypal-checkout'));

/** The rails a buyer pays by hand: those with details to pay to (PayPal is paid in its own window). */
const MANUAL_METHODS = BUY_FUNDING_RAILS.filter((method) => findRail(method)?.receiving);

type PaidAnswer = { message: string; order: Order };

/**
 * Buy checkout: 'Total: {amount}', then the active payment methods. PayPal is paid
 * in its window (or the demo sandbox); choosing Zelle, ACH or wire records the choice and shows where
 * to send the money. Payment is accepted while the confirmed quote holds (`expiresAt`).
 */
export function BuyCheckoutStep({
  order,
  settings,
  onPaid,
  onBack,
  onRequote,
}: {
  order: Order;
  settings: TradeSettings;
  onPaid: (order: Order) => void;
  onBack: () => void;
  onRequote: () => void;
}) {
  const { paypalClientId } = useAppConfig();
  const queryClient = useQueryClient();
  const manualPayment = useSubmitManualPayment();
  // One key per chosen method of this order: a double click or a retry records one payment.
  const paymentKeys = useIdempotencyKeys();
  const paying = useRef(false);
  const [choosing, setChoosing] = useState<BuyFundingRail | null>(null);
  const [expired, setExpired] = useState(() => Date.parse(order.expiresAt) <= Date.now());
  const methods = MANUAL_METHODS.filter((method) => settings.active[method]);
  const anyActive = settings.active.paypal || methods.length > 0;
  // ACH and wire are paid into the customer's own account number: make sure it exists first.
  useFunding(methods.some((method) => method === 'ach' || method === 'wire'));

  function paid(answer: PaidAnswer) {
    void queryClient.invalidateQueries({ queryKey: ordersQueryKey });
    toast.success(answer.message);
    onPaid(answer.order);
  }

  function failed(error: unknown) {
    toast.error(errorMessage(error));
    if (hasErrorCode(error, 'GONE')) setExpired(true);
  }

  function chooseManual(method: BuyFundingRail) {
    if (paying.current) return;
    paying.current = true;
    setChoosing(method);
    const input = { orderId: order._id, method, amount: order.value };
    manualPayment.mutate(
      { ...input, idempotencyKey: paymentKeys.keyFor(input) },
      {
        onSuccess: paid,
        onError: failed,
        onSettled: (_answer, error) => {
          paying.current = false;
          paymentKeys.settle(error ?? undefined);
          setChoosing(null);
        },
      },
    );
  }

  return (
    <div className="space-y-4">
      <StepHeading onBack={manualPayment.isPending ? undefined : onBack}>Checkout</StepHeading>
      <div className="flex flex-wrap items-baseline justify-between gap-2 rounded-2xl bg-ink-900 px-4 py-3 text-white">
        <p className="text-lg font-semibold tabular-nums">Total: {formatUsdNumber(order.value)}</p>
        {!expired && (
          <CountdownNote
            deadlineMs={Date.parse(order.expiresAt)}
            onExpire={() => setExpired(true)}
            tone="inverse"
            label={(time) => `Pay within ${time}`}
          />
        )}
      </div>

      {expired ? (
        <div className="space-y-3 rounded-2xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">
          <p>{QUOTE_EXPIRED_MESSAGE}</p>
          <Button variant="secondary" onClick={onRequote} fullWidth>
            Get a new quote
          </Button>
        </div>
      ) : (
        <div className="space-y-3">
          <p className="text-sm font-medium text-slate-700">Select Payment Method</p>
          {!anyActive && <NoActiveMethods />}
          {settings.active.paypal && <ArrivalNote>PayPal: {settings.arrival.paypal}</ArrivalNote>}
          {settings.active.paypal &&
            (paypalClientId ? (
              <Suspense fallback={<Spinner className="mx-auto size-5 text-slate-400" />}>
                <PayPalCheckout clientId={paypalClientId} order={order} onPaid={paid} onFailure={failed} />
              </Suspense>
            ) : (
              <PayPalDemo order={order} onPaid={paid} onFailure={failed} disabled={manualPayment.isPending} />
            ))}
          {methods.map((method) => (
            <MethodTile
              key={method}
              method={method}
              detail={settings.arrival[method]}
              onSelect={() => chooseManual(method)}
              loading={choosing === method}
              disabled={manualPayment.isPending}
            />
          ))}
        </div>
      )}
    </div>
  );
}
