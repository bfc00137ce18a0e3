import type { ReactNode } from 'react';
import type { AdminOrder } from '@offzero/shared/api/admin';
import type { ZodForm } from '../../../lib/forms';
import { TextField } from '../../../components/ui/text-field';
import { TextAreaField } from '../components/action-dialog';
import { btc, methodLabel, usd } from '../format';
import { flagLabel, type ActionFormValues, type OrderActionKind } from './order-actions';
import { PayoutDetails } from './payout-details';

/** What the dialog says before the action: what is about to happen, and what follows from it. */
export function describeAction(
  kind: OrderActionKind,
  order: AdminOrder,
): { description: ReactNode; consequences: ReactNode[] } {
  const wallet = typeof order.walletAddress === 'string' ? order.walletAddress : null;
  const method = methodLabel(order.payment?.method);
  switch (kind) {
    case 'mark-paid':
      return {
        description: `Confirm that ${usd(order.value)} arrived by ${method}.`,
        consequences: [
          order.bankTxn ? (
            <>
              The customer’s reference is <strong className="font-mono">{order.bankTxn}</strong>.
            </>
          ) : (
            'The customer has not added a bank reference; match the payment by amount and name.'
          ),
          'The order stays processing and moves to “Bitcoin to send”.',
          'Your name and the time are recorded in the audit log.',
        ],
      };
    case 'payout-btc':
      return {
        description: `Send ${btc(order.amount)} to the customer’s wallet first, then record its transaction.`,
        consequences: [
          <>
            Destination: <span className="font-mono text-xs break-all">{wallet ?? '—'}</span>
          </>,
          'The order becomes completed with this transaction id; the customer sees it at once.',
        ],
      };
    case 'send-btc':
      return {
        description: 'Demo mode: the simulated chain pays the customer and its transaction id is recorded.',
        consequences: [
          <>
            {btc(order.amount)} goes to <span className="font-mono text-xs break-all">{wallet ?? '—'}</span>.
          </>,
          'The order becomes completed with the new transaction id.',
        ],
      };
    case 'payout-usd':
      return {
        description: `Pay ${usd(order.value)} by ${method} first, then record the payment’s reference.`,
        consequences: [
          <PayoutDetails key="details" order={order} />,
          'The order becomes completed with this reference; the customer sees it at once.',
        ],
      };
    case 'cancel':
      return {
        description: `The ${order.status} ${order.type} order will be cancelled. This cannot be undone.`,
        consequences: [
          order.type === 'buy' && order.status === 'processing'
            ? 'If the customer has already paid, refund them outside OffZero.'
            : order.type === 'sell' && order.status === 'processing'
              ? 'The customer’s bitcoin has arrived: return it to them outside OffZero.'
              : 'No money has moved for this order.',
          'The reason is kept with the order and in the audit log.',
        ],
      };
    case 'refund-btc':
      return {
        description: `Send the customer’s bitcoin back first, then record where it went and its transaction.`,
        consequences: [
          order.receivedSats
            ? `This order received ${btc(Number(order.receivedSats) / 1e8)}; send it back less the network fee.`
            : 'Check the deposits below for what this order received.',
          order.status === 'cancelled' || order.status === 'completed'
            ? `The order stays ${order.status}; the return is added to its timeline.`
            : 'The order is cancelled: its dollars can no longer be paid out.',
          'The flag is cleared. The return is recorded once, with your name, in the audit log.',
        ],
      };
    case 'refund-usd':
      return {
        description: `Send ${usd(order.value)} back to the customer by ${method} first, then record the refund’s reference.`,
        consequences: [
          'The customer cancelled this buy as a scam; its case is open in Cases.',
          'The order stays cancelled; the refund and its reference appear in the customer’s timeline.',
          'The refund is recorded once, with your name, in the audit log.',
        ],
      };
    case 'resolve-flag':
      return {
        description: order.flag ? `${flagLabel(order.flag)}: ${order.flagNote ?? 'no details'}` : undefined,
        consequences: [
          'The flag is cleared; your note is kept with the order.',
          'The order’s state does not change.',
        ],
      };
  }
}

/** What the staff member fills in for the action (the demo's send asks for nothing). */
export function ActionFields({
  kind,
  form,
}: {
  kind: OrderActionKind;
  form: ZodForm<ActionFormValues, Record<string, string>>;
}) {
  switch (kind) {
    case 'mark-paid':
      return <NoteField form={form} />;
    case 'payout-btc':
      return (
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
    case 'payout-usd':
    case 'refund-usd':
      return (
        <>
          <TextField
            label={kind === 'refund-usd' ? 'Refund reference' : 'Payout reference'}
            {...form.textField('text')}
            placeholder="e.g. ZELLE-2026-0042"
            autoComplete="off"
            data-autofocus
          />
          <NoteField form={form} />
        </>
      );
    case 'cancel':
      return <TextAreaField label="Reason" {...form.textField('text')} maxLength={500} data-autofocus />;
    case 'refund-btc':
      return (
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
    case 'resolve-flag':
      return (
        <TextAreaField label="What was done" {...form.textField('text')} maxLength={500} data-autofocus />
      );
    default:
      return null;
  }
}

function NoteField({ form }: { form: ZodForm<ActionFormValues, Record<string, string>> }) {
  return <TextAreaField label="Note" optional rows={2} maxLength={500} {...form.register('note')} />;
}
