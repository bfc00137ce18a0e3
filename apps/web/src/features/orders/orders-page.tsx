import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Order } from '@offzero/shared/api/orders';
import { errorMessage } from '../../lib/api-client';
import { paths } from '../../config/paths';
import { PageHeader, PageLoadError } from '../../components/ui/page';
import { formatDateTime, formatOrderBtc, formatUsdNumber, orderNumber } from '../../lib/format';
import { useOrders, useOrdersStayFresh } from '../../domain/orders';
import { OrderStatusBadge, OrderTypeLabel } from './components/order-badges';
import { OrderDetailsDrawer } from './components/order-details-drawer';

const EMPTY = 'No orders available yet!';

/** What an order's last column holds: its next action, or null when it has none. */
export type OrderActionSlot = (order: Order) => ReactNode;

/**
 * My Orders: every order of the customer, newest first; any row opens its details in
 * a side drawer. Below 1024 px cards replace the table. What an order offers next (completing it in the
 * trade widget, a bank reference) comes from the route that composes this page (`orderAction`).
 */
export function OrdersPage({ orderAction }: { orderAction: OrderActionSlot }) {
  const orders = useOrders();
  useOrdersStayFresh();
  const [detailsOf, setDetailsOf] = useState<Order | null>(null);
  // `?order=<id>` (the link of an order's completion e-mail) opens that order's details.
  const [params, setParams] = useSearchParams();
  const linked = params.get('order');
  useEffect(() => {
    const order = linked ? orders.data?.find((candidate) => candidate._id === linked) : undefined;
    if (!order) return;
    setDetailsOf(order);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('order');
        return next;
      },
      { replace: true },
    );
  }, [linked, orders.data, setParams]);
  // The drawer shows the freshest copy of the order it was opened on.
  const shown = detailsOf ? (orders.data?.find((order) => order._id === detailsOf._id) ?? detailsOf) : null;

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
      <title>My Orders — OffZero</title>
      <PageHeader
        title="My Orders"
        description="Every order you placed, newest first. Select one for its details and receipt."
        actions={
          <Link
            to={paths.taxCenter}
            className="inline-flex h-10 items-center rounded-xl px-4 text-sm font-semibold text-brand-700 ring-1 ring-brand-200 hover:bg-brand-50"
          >
            Tax center
          </Link>
        }
      />
      <div className="mt-6">
        {orders.error ? (
          <PageLoadError message={errorMessage(orders.error)} onRetry={() => void orders.refetch()} />
        ) : orders.data?.length === 0 ? (
          <p className="rounded-2xl bg-white p-10 text-center text-sm text-slate-600 shadow-sm ring-1 ring-slate-200/80">
            {EMPTY}
          </p>
        ) : (
          <>
            <OrdersTable orders={orders.data} onOpen={setDetailsOf} orderAction={orderAction} />
            <OrderCards orders={orders.data} onOpen={setDetailsOf} orderAction={orderAction} />
          </>
        )}
      </div>

      <OrderDetailsDrawer order={shown} onClose={() => setDetailsOf(null)} />
    </div>
  );
}

interface ListProps {
  /** Undefined while loading: skeleton rows. */
  orders: Order[] | undefined;
  onOpen: (order: Order) => void;
  orderAction: OrderActionSlot;
}

// Beside the 16 rem sidebar, the table has about 700 px at 1024 px and 960 px at 1280 px: room for the
// specification's columns (pair, amount, price, value, type, date, status) with the side under the
// number, the date on two lines and the next step under the status.
function OrdersTable({ orders, onOpen, orderAction }: ListProps) {
  return (
    <div className="hidden overflow-x-auto rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80 lg:block">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Your orders</caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <tr>
            <th scope="col" className="px-2 py-3 xl:px-3">
              Order
            </th>
            <th scope="col" className="px-2 py-3 xl:px-3">
              Pair
            </th>
            <th scope="col" className="px-2 py-3 xl:px-3 text-right">
              Amount
            </th>
            <th scope="col" className="px-2 py-3 xl:px-3 text-right">
              Price
            </th>
            <th scope="col" className="px-2 py-3 xl:px-3 text-right">
              Value
            </th>
            <th scope="col" className="px-2 py-3 xl:px-3">
              Date
            </th>
            <th scope="col" className="px-2 py-3 xl:px-3">
              Status
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {orders
            ? orders.map((order) => (
                <tr
                  key={order._id}
                  data-testid="order-row"
                  data-order-id={order._id}
                  onClick={() => onOpen(order)}
                  className="cursor-pointer align-middle transition-colors hover:bg-slate-50"
                >
                  <td className="px-2 py-3 xl:px-3">
                    <button
                      type="button"
                      onClick={(event) => {
                        event.stopPropagation();
                        onOpen(order);
                      }}
                      aria-label={`Details of order #${orderNumber(order._id)}`}
                      className="font-mono text-xs font-medium text-ink-900 underline decoration-slate-300 underline-offset-2 hover:decoration-brand-500"
                    >
                      #{orderNumber(order._id)}
                    </button>
                    {/* The side sits under the number rather than in a column of its own, to leave room. */}
                    <span className="mt-1 block">
                      <OrderTypeLabel type={order.type} origin={order.origin} />
                    </span>
                  </td>
                  <td className="px-2 py-3 font-medium whitespace-nowrap text-ink-900 xl:px-3">
                    {order.pair}
                  </td>
                  <td className="px-2 py-3 xl:px-3 text-right whitespace-nowrap tabular-nums">
                    {formatOrderBtc(order)}
                  </td>
                  <td className="px-2 py-3 text-right whitespace-nowrap tabular-nums xl:px-3">
                    {formatUsdNumber(order.price)}
                  </td>
                  <td className="px-2 py-3 xl:px-3 text-right font-semibold whitespace-nowrap text-ink-900 tabular-nums">
                    {formatUsdNumber(order.value)}
                  </td>
                  <td className="px-2 py-3 xl:px-3 text-slate-600">
                    <DateLines iso={order.createdAt} />
                  </td>
                  <td className="px-2 py-3 xl:px-3">
                    <StatusWithAction
                      status={<OrderStatusBadge status={order.status} />}
                      action={orderAction(order)}
                    />
                  </td>
                </tr>
              ))
            : Array.from({ length: 5 }, (_, index) => (
                <tr key={index} aria-hidden="true" data-testid="order-skeleton">
                  {Array.from({ length: 7 }, (_, cell) => (
                    <td key={cell} className="px-2 py-4 xl:px-3">
                      <div className="h-4 animate-pulse rounded bg-slate-200/80" />
                    </td>
                  ))}
                </tr>
              ))}
        </tbody>
      </table>
      {!orders && (
        <span role="status" className="sr-only">
          Loading your orders
        </span>
      )}
    </div>
  );
}

/** The order's status, and under it what the order asks of the customer next (spec: the status column). */
function StatusWithAction({ status, action }: { status: ReactNode; action: ReactNode }) {
  return (
    <div className="flex flex-col items-start gap-2">
      {status}
      {action}
    </div>
  );
}

/** 'Mar 1, 2026' over '10:00 AM': a narrow column that never breaks inside the day or the time. */
function DateLines({ iso }: { iso: string }) {
  const text = formatDateTime(iso);
  const comma = text.lastIndexOf(', ');
  if (comma === -1) return <>{text}</>;
  return (
    <span className="text-xs leading-5">
      <span className="block whitespace-nowrap">{text.slice(0, comma)}</span>
      <span className="block whitespace-nowrap">{text.slice(comma + 2)}</span>
    </span>
  );
}

function OrderCards({ orders, onOpen, orderAction }: ListProps) {
  if (!orders) {
    return (
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:hidden" aria-hidden="true">
        {Array.from({ length: 4 }, (_, index) => (
          <li key={index} className="h-32 animate-pulse rounded-2xl bg-slate-200/70" />
        ))}
      </ul>
    );
  }
  return (
    <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:hidden">
      {orders.map((order) => (
        <OrderCard key={order._id} order={order} onOpen={onOpen} action={orderAction(order)} />
      ))}
    </ul>
  );
}

function OrderCard({
  order,
  onOpen,
  action,
}: {
  order: Order;
  onOpen: (order: Order) => void;
  action: ReactNode;
}) {
  return (
    <li
      data-testid="order-card"
      data-order-id={order._id}
      className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/80"
    >
      <button
        type="button"
        onClick={() => onOpen(order)}
        aria-label={`Details of order #${orderNumber(order._id)}`}
        className="block w-full text-left"
      >
        <span className="flex items-center justify-between gap-3">
          <OrderTypeLabel type={order.type} origin={order.origin} />
          <OrderStatusBadge status={order.status} />
        </span>
        <span className="mt-3 flex items-baseline justify-between gap-3">
          <span className="text-base font-semibold text-ink-900 tabular-nums">
            {formatOrderBtc(order)} BTC
          </span>
          <span className="font-semibold text-ink-900 tabular-nums">{formatUsdNumber(order.value)}</span>
        </span>
        <span className="mt-1 flex justify-between gap-3 text-xs text-slate-500">
          <span>
            {order.pair} at {formatUsdNumber(order.price)}
          </span>
          <span>{formatDateTime(order.createdAt)}</span>
        </span>
      </button>
      {action != null && <div className="mt-3 border-t border-slate-100 pt-3">{action}</div>}
    </li>
  );
}
