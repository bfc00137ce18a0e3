import { useState } from 'react';
import type { Order } from '@offzero/shared/api/orders';
import { orderNumber } from '../../lib/format';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/modal';
import { OrdersPage } from '../../features/orders/orders-page';
import { BankReferenceForm } from '../../features/trade/components/bank-reference-form';
import { PriceProvider } from '../../features/trade/price-context';
import { TradeWidget } from '../../features/trade/trade-widget';
import { W9StepForm } from '../../features/tax/components/w9-step-form';

/** A processing buy paid by bank transfer, still without the customer's transfer reference. */
function awaitsBankReference(order: Order): boolean {
  return (
    order.type === 'buy' &&
    order.status === 'processing' &&
    !order.bankTxn &&
    // A plan's debit or a deposit pays the buy itself: there is no reference for the customer to give.
    order.origin === undefined &&
    order.payment !== null &&
    order.payment.method !== 'paypal'
  );
}

/** A processing bank-transfer buy whose reference the customer already gave. */
function hasBankReference(order: Order): boolean {
  return (
    order.type === 'buy' &&
    order.status === 'processing' &&
    order.bankTxn !== null &&
    order.payment !== null &&
    order.payment.method !== 'paypal'
  );
}

/**
 * My Orders with what the trade feature adds to it: a pending order offers 'Complete
 * Order' (the trade widget, in a dialog); a processing bank-transfer buy asks for its transfer reference.
 */
export default function OrdersRoute() {
  const [completing, setCompleting] = useState<Order | null>(null);

  const orderAction = (order: Order) => {
    if (order.status === 'pending') {
      return (
        <Button
          size="sm"
          onClick={(event) => {
            event.stopPropagation();
            setCompleting(order);
          }}
        >
          Complete Order
        </Button>
      );
    }
    if (awaitsBankReference(order)) return <BankReferenceForm orderId={order._id} compact />;
    if (hasBankReference(order)) {
      return (
        <span className="text-xs text-slate-500">
          Ref. <span className="font-mono text-slate-700">{order.bankTxn}</span>
        </span>
      );
    }
    return null;
  };

  return (
    <>
      <OrdersPage orderAction={orderAction} />
      <Modal
        open={completing !== null}
        onClose={() => setCompleting(null)}
        title={completing ? `Complete order #${orderNumber(completing._id)}` : ''}
        size="lg"
      >
        {completing && (
          <PriceProvider>
            <TradeWidget
              pendingOrder={completing}
              embedded
              taxDetailsForm={W9Step}
              className="p-0! shadow-none! ring-0! sm:p-0!"
            />
          </PriceProvider>
        )}
      </Modal>
    </>
  );
}

/** The tax feature's W-9 form, as the sell flow's tax details step. */
function W9Step({ onSaved }: { onSaved: () => void }) {
  return <W9StepForm onSaved={onSaved} />;
}
