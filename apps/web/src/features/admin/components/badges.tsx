import type { ReactNode } from 'react';
import { ORDER_STATUS_LABEL, type OrderStatusValue } from '@offzero/shared/api/orders';
import { KYC_STATUS_LABEL, type KycStatusValue } from '@offzero/shared/api/kyc';
import { AlertIcon, ArrowDownLeftIcon, ArrowUpRightIcon } from '../../../components/ui/icons';
import { flagLabel } from '../orders/order-actions';

export type PillTone = 'amber' | 'sky' | 'emerald' | 'slate' | 'red' | 'violet';

const TONES: Record<PillTone, string> = {
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20',
  sky: 'bg-sky-50 text-sky-800 ring-sky-600/20',
  emerald: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20',
  slate: 'bg-slate-100 text-slate-600 ring-slate-500/20',
  red: 'bg-red-50 text-red-700 ring-red-600/20',
  violet: 'bg-violet-50 text-violet-700 ring-violet-600/20',
};

export function Pill({ tone, children, title }: { tone: PillTone; children: ReactNode; title?: string }) {
  return (
    <span
      title={title}
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

const STATUS_TONE: Record<OrderStatusValue, PillTone> = {
  pending: 'amber',
  processing: 'sky',
  completed: 'emerald',
  expired: 'slate',
  cancelled: 'red',
};

export function StatusPill({ status }: { status: OrderStatusValue }) {
  return (
    <span data-testid="order-status" data-status={status}>
      <Pill tone={STATUS_TONE[status]}>{ORDER_STATUS_LABEL[status]}</Pill>
    </span>
  );
}

export function FlagPill({ flag, note }: { flag: string; note?: string | null }) {
  return (
    <Pill tone="red" title={note ?? undefined}>
      <AlertIcon className="size-3.5" />
      {flagLabel(flag)}
    </Pill>
  );
}

const KYC_TONE: Record<KycStatusValue, PillTone> = { YELLOW: 'amber', GREEN: 'emerald', RED: 'red' };

export function KycPill({ status }: { status: KycStatusValue }) {
  return <Pill tone={KYC_TONE[status]}>{KYC_STATUS_LABEL[status]}</Pill>;
}

export function TypeLabel({ type }: { type: 'buy' | 'sell' }) {
  const Icon = type === 'buy' ? ArrowDownLeftIcon : ArrowUpRightIcon;
  return (
    <span className="inline-flex items-center gap-1.5 font-medium text-slate-700">
      <span
        aria-hidden="true"
        className={`inline-flex size-5 items-center justify-center rounded-full ${
          type === 'buy' ? 'bg-emerald-50 text-emerald-600' : 'bg-brand-50 text-brand-700'
        }`}
      >
        <Icon className="size-3" />
      </span>
      {type === 'buy' ? 'Buy' : 'Sell'}
    </span>
  );
}
