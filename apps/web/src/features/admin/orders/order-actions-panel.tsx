import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { toast } from '../../../lib/toast';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useZodForm, type ZodForm } from '../../../lib/forms';
import { useAppConfig } from '../../../lib/app-config';
import { useIdempotencyKeys } from '../../../lib/idempotency-key';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useOrderAction } from '../api/run-order-action';
import type { AdminOrder, OrderActionOffer } from '@offzero/shared/api/admin';
import { ActionDialog, TextAreaField } from '../components/action-dialog';
import { Panel } from '../components/blocks';
import { btc, methodLabel, usd } from '../format';
import { actionFormSchema, flagLabel, type ActionFormValues, type OrderActionKind } from './order-actions';

interface ActionCopy {
  button: string;
  title: string;
  confirm: string;
  done: string;
  tone: 'primary' | 'secondary' | 'danger';
  buttonVariant: 'primary' | 'secondary' | 'outline' | 'danger';
}

const COPY: Record<OrderActionKind, ActionCopy> = {
  'mark-paid': {
    button: 'Mark payment received',
    title: 'Mark payment received',
    confirm: 'Mark received',
    done: 'Payment marked as received.',
    tone: 'primary',
    buttonVariant: 'primary',
  },
  'payout-btc': {
    button: 'Record payout txid',
    title: 'Record the bitcoin payout',
    confirm: 'Record payout',
    done: 'Bitcoin payout recorded; the order is completed.',
    tone: 'primary',
    buttonVariant: 'primary',
  },
  'send-btc': {
    button: 'Send via demo chain',
    title: 'Send the bitcoin through the demo chain',
    confirm: 'Send bitcoin',
    done: 'Bitcoin sent on the demo chain; the order is completed.',
    tone: 'secondary',
    buttonVariant: 'secondary',
  },
  'payout-usd': {
    button: 'Record USD payout',
    title: 'Record the dollar payout',
    confirm: 'Record payout',
    done: 'Dollar payout recorded; the order is completed.',
    tone: 'primary',
    buttonVariant: 'primary',
  },
  cancel: {
    button: 'Cancel order',
    title: 'Cancel this order',
    confirm: 'Cancel order',
    done: 'Order cancelled.',
    tone: 'danger',
    buttonVariant: 'outline',
  },
  'refund-btc': {
    button: 'Refund BTC',
    title: 'Record the bitcoin returned',
    confirm: 'Record return',
    done: 'The return is recorded.',
    tone: 'danger',
    buttonVariant: 'outline',
  },
  'resolve-flag': {
    button: 'Resolve flag',
    title: 'Resolve the flag',
    confirm: 'Resolve flag',
    done: 'Flag resolved.',
    tone: 'primary',
    buttonVariant: 'outline',
  },
};

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

function ActionForm({
  kind,
  order,
  onClose,
  onAwaiting,
}: {
  kind: OrderActionKind;
  order: AdminOrder;
  onClose: () => void;
  onAwaiting: (note: string) => void;
}) {
  const action = useOrderAction(order._id);
  // One key per confirmed action: a double click or a retry acts once (a payout is sent once).
  const actionKeys = useIdempotencyKeys();
  const running = useRef(false);
  const schema = useMemo(() => actionFormSchema(kind), [kind]);
  const form = useZodForm(schema, { defaultValues: { text: '', address: '', note: '' } });
  const copy = COPY[kind];
  const wallet = typeof order.walletAddress === 'string' ? order.walletAddress : null;
  const method = methodLabel(order.payment?.method);

  const submit = form.handleSubmit((body) => {
    if (running.current) return;
    running.current = true;
    action.mutate(
      { kind, body, idempotencyKey: actionKeys.keyFor({ kind, body }) },
      {
        onSettled: (_answer, error) => {
          running.current = false;
          actionKeys.settle(error ?? undefined);
        },
        onSuccess: (answer) => {
          if ('approval' in answer) {
            // Nothing changed yet: another admin must do the same action.
            toast.success('Waiting for a second approver.');
            onAwaiting(`Another admin must confirm this (asked by ${answer.approval.requestedBy}).`);
          } else {
            toast.success(`${answer.message} ${copy.done}`);
          }
          onClose();
        },
      },
    );
  });

  const serverError = action.error
    ? action.error instanceof ApiError && action.error.errors
      ? (Object.values(action.error.errors)[0] ?? action.error.message)
      : errorMessage(action.error)
    : null;

  let description: ReactNode;
  let consequences: ReactNode[] = [];
  let fields: ReactNode = null;

  switch (kind) {
    case 'mark-paid':
      description = `Confirm that ${usd(order.value)} arrived by ${method}.`;
      consequences = [
        order.bankTxn ? (
          <>
            The customer’s reference is <strong className="font-mono">{order.bankTxn}</strong>.
          </>
        ) : (
          'The customer has not added a bank reference; match the payment by amount and name.'
        ),
        'The order stays processing and moves to “Bitcoin to send”.',
        'Your name and the time are recorded in the audit log.',
      ];
      fields = <NoteField form={form} />;
      break;
    case 'payout-btc':
      description = `Send ${btc(order.amount)} to the customer’s wallet first, then record its transaction.`;
      consequences = [
        <>
          Destination: <span className="font-mono text-xs break-all">{wallet ?? '—'}</span>
        </>,
        'The order becomes completed with this transaction id; the customer sees it at once.',
      ];
      fields = (
        <>
          <TextField
            label="Transaction id"
            {...form.textField('text')}
            placeholder="64 hexadecimal characters"
            autoComplete="off"
            spellCheck={false}
            inputClassName="font-mono"
            data-autofocus
          />
          <NoteField form={form} />
        </>
      );
      break;
    case 'send-btc':
      description = 'Demo mode: the simulated chain pays the customer and its transaction id is recorded.';
      consequences = [
        <>
          {btc(order.amount)} goes to <span className="font-mono text-xs break-all">{wallet ?? '—'}</span>.
        </>,
        'The order becomes completed with the new transaction id.',
      ];
      break;
    case 'payout-usd':
      description = `Pay ${usd(order.value)} by ${method} first, then record the payment’s reference.`;
      consequences = [
        <PayoutDetails key="details" order={order} />,
        'The order becomes completed with this reference; the customer sees it at once.',
      ];
      fields = (
        <>
          <TextField
            label="Payout reference"
            {...form.textField('text')}
            placeholder="e.g. ZELLE-2026-0042"
            autoComplete="off"
            data-autofocus
          />
          <NoteField form={form} />
        </>
      );
      break;
    case 'cancel':
      description = `The ${order.status} ${order.type} order will be cancelled. This cannot be undone.`;
      consequences = [
        order.type === 'buy' && order.status === 'processing'
          ? 'If the customer has already paid, refund them outside OffZero.'
          : order.type === 'sell' && order.status === 'processing'
            ? 'The customer’s bitcoin has arrived: return it to them outside OffZero.'
            : 'No money has moved for this order.',
        'The reason is kept with the order and in the audit log.',
      ];
      fields = <TextAreaField label="Reason" {...form.textField('text')} maxLength={500} data-autofocus />;
      break;
    case 'refund-btc':
      description = `Send the customer’s bitcoin back first, then record where it went and its transaction.`;
      consequences = [
        order.receivedSats
          ? `This order received ${btc(Number(order.receivedSats) / 1e8)}; send it back less the network fee.`
          : 'Check the deposits below for what this order received.',
        order.status === 'cancelled' || order.status === 'completed'
          ? `The order stays ${order.status}; the return is added to its timeline.`
          : 'The order is cancelled: its dollars can no longer be paid out.',
        'The flag is cleared. The return is recorded once, with your name, in the audit log.',
      ];
      fields = (
        <>
          <TextField
            label="Customer’s address"
            {...form.textField('address')}
            placeholder="bc1… / tb1…"
            autoComplete="off"
            spellCheck={false}
            inputClassName="font-mono"
            data-autofocus
          />
          <TextField
            label="Transaction id"
            {...form.textField('text')}
            placeholder="64 hexadecimal characters"
            autoComplete="off"
            spellCheck={false}
            inputClassName="font-mono"
          />
          <NoteField form={form} />
        </>
      );
      break;
    case 'resolve-flag':
      description = order.flag ? `${flagLabel(order.flag)}: ${order.flagNote ?? 'no details'}` : undefined;
      consequences = [
        'The flag is cleared; your note is kept with the order.',
        'The order’s state does not change.',
      ];
      fields = (
        <TextAreaField label="What was done" {...form.textField('text')} maxLength={500} data-autofocus />
      );
      break;
  }

  return (
    <ActionDialog
      open
      onClose={onClose}
      title={copy.title}
      description={description}
      consequences={consequences}
      confirmLabel={copy.confirm}
      tone={copy.tone}
      busy={action.isPending}
      error={serverError}
      onSubmit={() => void submit()}
    >
      {fields}
    </ActionDialog>
  );
}

function NoteField({ form }: { form: ZodForm<ActionFormValues, Record<string, string>> }) {
  return <TextAreaField label="Note" optional rows={2} maxLength={500} {...form.register('note')} />;
}

/** Where a sell's dollars go: the customer's own details, as saved with the order. */
export function PayoutDetails({ order }: { order: AdminOrder }) {
  const details = order.payment?.receiving_in ?? {};
  const lines = Object.entries(details).filter(([, value]) => typeof value === 'string' && value !== '');
  return (
    <span className="block">
      Pay to ({methodLabel(order.payment?.method)}):{' '}
      {lines.length === 0 ? (
        'no details on the order'
      ) : (
        <span className="mt-1 block space-y-0.5 font-mono text-xs">
          {lines.map(([key, value]) => (
            <span key={key} className="block break-all">
              {RECEIVING_LABEL[key] ?? key}: {value}
            </span>
          ))}
        </span>
      )}
    </span>
  );
}

export const RECEIVING_LABEL: Record<string, string> = {
  account_holder: 'Account holder',
  account_name: 'Account holder',
  account_number: 'Account number',
  bank_address: 'Bank address',
  address: 'Bank address',
  routing_number: 'Routing number',
  swift: 'SWIFT',
  payment_address: 'Zelle',
  bank_name: 'Bank',
};
