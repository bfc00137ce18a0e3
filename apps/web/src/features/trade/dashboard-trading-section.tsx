import { PaymentMethods } from '../../components/ui/payment-methods';
import { RecentOrders } from '../orders/components/recent-orders';
import { PriceProvider } from './price-context';
import { TradeWidget } from './trade-widget';

/** The dashboard's trading half (spec section 2): Recent Orders beside the trade widget. */
export function DashboardTradingSection() {
  return (
    <section
      aria-label="Trade"
      className="mt-8 grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]"
    >
      <div className="order-2 lg:order-1">
        <RecentOrders />
      </div>
      <div className="order-1 space-y-4 lg:order-2">
        <PriceProvider>
          <TradeWidget embedded />
        </PriceProvider>
        <div className="rounded-2xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200/80">
          <p className="mb-2 text-xs font-medium text-slate-500">We accept</p>
          <PaymentMethods />
        </div>
      </div>
    </section>
  );
}
