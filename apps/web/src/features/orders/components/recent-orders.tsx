import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { formatDateTime, formatOrderBtc, formatUsdNumber } from '../../../lib/format';
import { useOrders, useOrdersStayFresh } from '../../../domain/orders';
import { OrderTypeLabel } from './order-badges';

/** The dashboard's five latest orders. A failed fetch is only logged. */
export const RECENT_ORDERS = 5;

export function RecentOrders() {
  const orders = useOrders({ limit: RECENT_ORDERS });
  useOrdersStayFresh();
  const rows = orders.data ?? (orders.error ? [] : undefined);

  return (
    <section
      aria-labelledby="recent-orders-heading"
      data-testid="recent-orders"
      className="rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80"
    >
      <div className="flex items-center justify-between gap-3 px-5 pt-5 pb-3">
        <h2 id="recent-orders-heading" className="text-base font-semibold text-ink-900">
          Recent Orders
        </h2>
        <Link to={paths.orders} className="text-sm font-medium text-brand-700 hover:text-brand-800">
          View all
        </Link>
      </div>
      {rows?.length === 0 ? (
        <p className="px-5 pt-6 pb-10 text-center text-sm text-slate-500">No orders available yet!</p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Your five latest orders</caption>
          <thead className="border-y border-slate-100 bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="py-2.5 pr-1 pl-4 sm:pr-2 sm:pl-5">
                <span className="sr-only">Type</span>
              </th>
              <th scope="col" className="hidden px-3 py-2.5 sm:table-cell">
                Pair
              </th>
              <th scope="col" className="px-2 py-2.5 text-right sm:px-3">
                Amount
              </th>
              <th scope="col" className="px-2 py-2.5 text-right sm:px-3">
                Value
              </th>
              <th scope="col" className="py-2.5 pr-4 pl-2 text-right sm:pr-5 sm:pl-3">
                Date
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows
              ? rows.map((order) => (
                  <tr key={order._id} data-testid="recent-order">
                    <td className="py-3 pr-1 pl-4 sm:pr-2 sm:pl-5">
                      <OrderTypeLabel type={order.type} iconOnly />
                    </td>
                    <td className="hidden px-3 py-3 font-medium whitespace-nowrap text-ink-900 sm:table-cell">
                      {order.pair}
                    </td>
                    <td className="px-2 py-3 text-right whitespace-nowrap tabular-nums sm:px-3">
                      {formatOrderBtc(order)}
                      {/* Phones have no pair column: the pair (which names the unit) goes under the amount. */}
                      <span className="hidden text-slate-500 sm:inline"> BTC</span>
                      <span className="block text-xs text-slate-500 sm:hidden">{order.pair}</span>
                    </td>
                    <td className="px-2 py-3 text-right font-semibold whitespace-nowrap text-ink-900 tabular-nums sm:px-3">
                      {formatUsdNumber(order.value)}
                    </td>
                    <td className="py-3 pr-4 pl-2 text-right text-xs text-slate-500 sm:pr-5 sm:pl-3">
                      {formatDateTime(order.createdAt)}
                    </td>
                  </tr>
                ))
              : Array.from({ length: RECENT_ORDERS }, (_, index) => (
                  <tr key={index} aria-hidden="true">
                    {Array.from({ length: 5 }, (_, cell) => (
                      <td key={cell} className={`px-3 py-3.5 ${cell === 1 ? 'hidden sm:table-cell' : ''}`}>
                        <div className="h-4 animate-pulse rounded bg-slate-200/80" />
                      </td>
                    ))}
                  </tr>
                ))}
          </tbody>
        </table>
      )}
      {!rows && (
        <span role="status" className="sr-only">
          Loading your orders
        </span>
      )}
    </section>
  );
}
