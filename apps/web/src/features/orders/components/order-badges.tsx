import { orderOriginLabel, type Order, type OrderStatusValue } from '@offzero/shared/api/orders';
import { ArrowDownLeftIcon, ArrowUpRightIcon } from '../../../components/ui/icons';

const STATUS_STYLE: Record<OrderStatusValue, string> = {
  pending: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  processing: 'bg-sky-50 text-sky-800 ring-sky-600/20',
  completed: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  expired: 'bg-slate-100 text-slate-600 ring-slate-500/20',
  cancelled: 'bg-red-50 text-red-700 ring-red-600/20',
};

const STATUS_LABEL: Record<OrderStatusValue, string> = {
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  expired: 'Expired',
  cancelled: 'Cancelled',
};

/** An order's status as text with its own colour. */
export function OrderStatusBadge({ status }: { status: OrderStatusValue }) {
  return (
    <span
      data-status={status}
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${STATUS_STYLE[status]}`}
    >
      {STATUS_LABEL[status]}
    </span>
  );
}

/** Buy (bitcoin in) or sell (bitcoin out): an icon, and the word unless `iconOnly`. */
export function OrderTypeLabel({
  type,
  origin,
  iconOnly = false,
}: {
  type: Order['type'];
  /** A recurring or deposit buy says so ("Recurring buy", "Deposit buy"). */
  origin?: Order['origin'];
  iconOnly?: boolean;
}) {
  const Icon = type === 'buy' ? ArrowDownLeftIcon : ArrowUpRightIcon;
  const label = orderOriginLabel(origin ?? null) ?? (type === 'buy' ? 'Buy' : 'Sell');
  return (
    <span className="inline-flex items-center gap-1.5 font-medium text-slate-700">
      <span
        className={`inline-flex size-6 items-center justify-center rounded-full ${
          type === 'buy' ? 'bg-emerald-50 text-emerald-600' : 'bg-brand-50 text-brand-700'
        }`}
        title={iconOnly ? label : undefined}
      >
        <Icon className="size-3.5" />
      </span>
      <span className={iconOnly ? 'sr-only' : undefined}>{label}</span>
    </span>
  );
}
