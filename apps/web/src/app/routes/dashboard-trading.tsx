import { useState } from 'react';
import type { Order } from '@offzero/shared/api/orders';
import { orderNumber } from '../../lib/format';
import { useOrders } from '../../domain/orders';
import { PaymentMethods } from '../../components/ui/payment-methods';
import { RECENT_ORDERS, RecentOrders } from '../../features/orders/components/recent-orders';
import { W9Step } from '../../features/tax/components/w9-step';
import { PriceProvider } from '../../features/trade/price-context';
import { TradeWidget } from '../../features/trade/trade-widget';

/*
 * The dashboard's trading half, a chunk of its own: loaded after the page's first paint (dashboard.tsx).
 * It composes the orders, tax and trade features here because none of them may import another.
 */

/** The dashboard's trading half: Recent Orders beside the trade widget. */
export default function TradingSection() {
  return (
    <section
      aria-label="Trade"
      // Side by side from 1280 px: at 1024 px beside the sidebar, Recent Orders would lose its columns.
      className="mt-8 grid grid-cols-1 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]"
    >
      <div className="order-2 xl:order-1">
        <RecentOrders />
      </div>
      <div className="order-1 mx-auto w-full max-w-xl space-y-4 xl:order-2 xl:max-w-none">
        <PriceProvider>
          <ResumingTradeWidget />
        </PriceProvider>
        <div className="rounded-2xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200/80">
          <p className="mb-2 text-xs font-medium text-slate-600">We accept</p>
          <PaymentMethods />
        </div>
      </div>
    </section>
  );
}

/**
 * The newest pending order, which the widget picks up instead of starting a second one (the tab
 * follows its type). Buys resume at checkout (or re-confirm an expired quote); sells go back
 * to the same deposit address, QR code and remaining time, all read from the server.
 */
function pendingOrderToResume(orders: readonly Order[]): Order | null {
  return orders.find((order) => order.status === 'pending') ?? null;
}

/**
 * The dashboard's trade widget, opened on the customer's pending order when there is one. The order is
 * chosen once, when the list first loads: the widget then follows the order itself (to its success
 * step, say) rather than starting over when the order stops being pending.
 */
function ResumingTradeWidget() {
  // The same query as Recent Orders beside it: one request for both.
  const orders = useOrders({ limit: RECENT_ORDERS });
  const [resumed, setResumed] = useState<Order | null | undefined>(undefined);
  const loaded = orders.data !== undefined || orders.isError;
  if (resumed === undefined && loaded) setResumed(pendingOrderToResume(orders.data ?? []));

  if (resumed === undefined) {
    return (
      <div
        role="status"
        aria-label="Loading"
        className="h-96 animate-pulse rounded-3xl bg-white shadow-sm ring-1 ring-slate-200/80"
      />
    );
  }
  return (
    <div className="space-y-2">
      {resumed && (
        <p className="px-1 text-sm text-slate-700" data-testid="resumed-order-note">
          Picking up your pending {resumed.type} order{' '}
          <span className="font-semibold text-ink-900">#{orderNumber(resumed._id)}</span>.
        </p>
      )}
      <TradeWidget embedded pendingOrder={resumed} taxDetailsForm={W9Step} />
    </div>
  );
}
