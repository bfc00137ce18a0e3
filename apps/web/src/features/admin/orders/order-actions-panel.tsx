import { useId, useState } from 'react';
import { useAppConfig } from '../../../lib/app-config';
import { Button } from '../../../components/ui/button';
import type { AdminOrder, OrderActionOffer } from '@offzero/shared/api/admin';
import { Panel } from '../components/blocks';
import { ActionForm } from './order-action-form';
import { COPY } from './order-action-copy';
import type { OrderActionKind } from './order-actions';

/**
 * The order's actions as the server judges them (`offers` of the order answer): each allowed one behind
 * a confirmation that says what will happen, each blocked one shown disabled with the server's reason.
 */
export function OrderActionsPanel({ order, offers }: { order: AdminOrder; offers: OrderActionOffer[] }) {
  const { mode } = useAppConfig();
  // The demo chain's send exists only in demo mode.
  const shown = offers.filter((offer) => offer.kind !== 'send-btc' || mode === 'demo');
  // One note per reason: two payouts blocked by the same unconfirmed address say it once.
  const reasons = [...new Set(shown.flatMap((offer) => (offer.allowed ? [] : [offer.reason ?? ''])))];
  const reasonsId = useId();
  const [open, setOpen] = useState<OrderActionKind | null>(null);
  // Four eyes: the action this admin asked for, waiting for a second admin to carry it out.
  const [awaiting, setAwaiting] = useState<string | null>(null);

  return (
    <Panel title="Actions" testId="order-actions">
      {awaiting && (
        <p
          role="status"
          className="mb-3 rounded-xl bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-600/20"
        >
          Waiting for a second approver. {awaiting}
        </p>
      )}
      {reasons.map((reason, index) => (
        <p
          key={reason}
          id={`${reasonsId}-${index}`}
          data-testid="order-action-blocked"
          className="mb-3 rounded-xl bg-sky-50 p-3 text-sm text-sky-900 ring-1 ring-sky-600/15"
        >
          {reason}
        </p>
      ))}
      {shown.length === 0 ? (
        <p className="text-sm text-slate-600">
          {order.status === 'completed'
            ? 'This order is completed. Nothing is left to do.'
            : order.status === 'cancelled'
              ? 'This order is cancelled. Nothing is left to do.'
              : 'No action fits this order’s state right now.'}
        </p>
      ) : (
        <div className="flex flex-col gap-2">
          {shown.map(({ kind, allowed, reason }) => (
            <Button
              key={kind}
              variant={COPY[kind].buttonVariant}
              fullWidth
              disabled={!allowed}
              aria-describedby={allowed ? undefined : `${reasonsId}-${reasons.indexOf(reason ?? '')}`}
              onClick={() => setOpen(kind)}
            >
              {COPY[kind].button}
            </Button>
          ))}
        </div>
      )}
      {open && (
        <ActionForm
          key={open}
          kind={open}
          order={order}
          onClose={() => setOpen(null)}
          onAwaiting={setAwaiting}
        />
      )}
    </Panel>
  );
}
