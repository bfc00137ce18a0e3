import { useEffect } from 'react';
import { PayPalButtons, PayPalScriptProvider, usePayPalScriptReducer } from '@paypal/react-paypal-js';
import type { Order } from '@offzero/shared/api/orders';
import { Spinner } from '../../../components/ui/spinner';
import { capturePayPalPayment, createPayPalPayment } from '../api/paypal';

/**
 * PayPal's own buttons (production). The script loads with our public client id, in USD with capture
 * intent; PayPal's window only approves: our server creates the PayPal order for the order's value and
 * captures it, so the amount cannot be changed in the browser. Loaded on demand (demo never needs it).
 */
export default function PayPalCheckout({
  clientId,
  order,
  onPaid,
  onFailure,
}: {
  clientId: string;
  order: Order;
  onPaid: (answer: { message: string; order: Order }) => void;
  onFailure: (error: unknown) => void;
}) {
  return (
    <PayPalScriptProvider options={{ clientId, currency: 'USD', intent: 'capture' }}>
      <Buttons order={order} onPaid={onPaid} onFailure={onFailure} />
    </PayPalScriptProvider>
  );
}

function Buttons({
  order,
  onPaid,
  onFailure,
}: {
  order: Order;
  onPaid: (answer: { message: string; order: Order }) => void;
  onFailure: (error: unknown) => void;
}) {
  // The script loader's states: initial, pending, resolved, rejected.
  const [{ isInitial, isPending, isRejected }] = usePayPalScriptReducer();

  useEffect(() => {
    if (isRejected) console.error('Failed to load the PayPal JS SDK script.');
  }, [isRejected]);

  if (isRejected) {
    return (
      <p className="rounded-2xl bg-slate-50 p-3 text-sm text-slate-600 ring-1 ring-slate-200">
        PayPal could not be loaded. Choose another method below, or reload the page to try again.
      </p>
    );
  }

  return (
    <div className="relative min-h-12">
      {(isInitial || isPending) && (
        <div
          className="absolute inset-0 flex items-center justify-center"
          role="status"
          aria-label="Loading PayPal"
        >
          <Spinner className="size-5 text-slate-400" />
        </div>
      )}
      <PayPalButtons
        style={{ layout: 'horizontal', shape: 'pill', label: 'pay', height: 48, tagline: false }}
        forceReRender={[order._id, order.value]}
        createOrder={async () => {
          try {
            return await createPayPalPayment(order._id);
          } catch (error) {
            onFailure(error);
            throw error;
          }
        }}
        onApprove={async (data) => {
          try {
            // One capture per PayPal order, however often it is tried.
            onPaid(await capturePayPalPayment(data.orderID, order._id, `capture-${data.orderID}`));
          } catch (error) {
            onFailure(error);
          }
        }}
        onError={(error) => console.error('PayPal reported an error', error)}
      />
    </div>
  );
}
