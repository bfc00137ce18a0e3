import { z } from 'zod';
import type { AdminOrder, PayoutBatchRef } from '@offzero/shared/api/admin';
import { payoutBatchStatusText } from '@offzero/shared/api/payout-batches';
import { bitcoinAddressField } from '@offzero/shared/bitcoin/address-field';
import { reasonSchema } from '../components/action-dialog';

/** The back office's order actions; each is the last segment of `POST /api/admin/orders/:id/<kind>`. */
export type OrderActionKind =
  'mark-paid' | 'payout-btc' | 'send-btc' | 'payout-usd' | 'cancel' | 'refund-btc' | 'resolve-flag';

export interface ActionContext {
  /** Confirmations a sell deposit needs before the dollars go out (from the order detail answer). */
  confirmationsRequired: number;
  /** Demo mode: the simulated chain can send the bitcoin itself. */
  demo: boolean;
  /** A sell whose deposit is still on the chain: its coins could be returned (from the order detail). */
  holdsDeposit?: boolean;
  /** The payout batch holding this buy (from the order detail): the batch pays it, not staff by hand. */
  payoutBatch?: PayoutBatchRef | null;
}

type ActionableOrder = Pick<
  AdminOrder,
  'type' | 'status' | 'paymentConfirmedAt' | 'confirmations' | 'flag' | 'walletAddress'
>;

/**
 * The actions that fit the order's state, in the order the console offers them. The server checks
 * every one again (409 from a wrong state); this only keeps impossible buttons off the screen.
 *
 * - buy, processing, payment not yet confirmed, not flagged → mark the payment received
 * - buy, processing, payment confirmed, not held by a payout batch → record the payout txid (and, in
 *   demo, send it on the demo chain)
 * - sell, processing, deposit confirmed enough → record the dollar payout
 * - pending, processing or expired → cancel
 * - sell holding a deposit we will not pay for (flagged, other than a reversed deposit; or cancelled or
 *   expired) → record the coins returned to the customer
 * - flagged (any state) → resolve the flag; a flagged order is held: nothing is paid out (DESIGN.md 7.7)
 */
export function availableActions(order: ActionableOrder, context: ActionContext): OrderActionKind[] {
  const actions: OrderActionKind[] = [];
  if (order.type === 'buy' && order.status === 'processing') {
    if (!order.paymentConfirmedAt) {
      if (!order.flag) actions.push('mark-paid');
    } else if (!order.flag && !context.payoutBatch) {
      actions.push('payout-btc');
      if (context.demo && typeof order.walletAddress === 'string' && order.walletAddress !== '') {
        actions.push('send-btc');
      }
    }
  }
  if (
    order.type === 'sell' &&
    order.status === 'processing' &&
    order.confirmations >= context.confirmationsRequired &&
    !order.flag
  ) {
    actions.push('payout-usd');
  }
  if (order.status === 'pending' || order.status === 'processing' || order.status === 'expired') {
    actions.push('cancel');
  }
  if (
    order.type === 'sell' &&
    context.holdsDeposit &&
    ((order.flag && order.flag !== 'deposit_reversed') ||
      order.status === 'cancelled' ||
      order.status === 'expired')
  ) {
    actions.push('refund-btc');
  }
  if (order.flag) actions.push('resolve-flag');
  return actions;
}

/** Why nothing can move the order forward yet, when that is worth saying (null otherwise). */
export function waitingReason(order: ActionableOrder, context: ActionContext): string | null {
  const payable =
    order.status === 'processing' &&
    (order.type === 'buy'
      ? order.paymentConfirmedAt !== null
      : order.confirmations >= context.confirmationsRequired);
  if (order.flag && payable) return 'Resolve the flag first: a flagged order is not paid out.';
  if (order.flag && order.type === 'buy' && order.status === 'processing' && !order.paymentConfirmedAt) {
    return 'Resolve the flag first: a flagged buy is not marked paid.';
  }
  if (payable && order.type === 'buy' && context.payoutBatch) {
    const { id, status } = context.payoutBatch;
    return `Payout batch ${id.slice(0, 8)} pays this buy (${payoutBatchStatusText[status].toLowerCase()}): finish or abandon it on the Payouts page.`;
  }
  if (order.type === 'sell' && order.status === 'pending') {
    return 'Waiting for the customer’s bitcoin deposit.';
  }
  if (
    order.type === 'sell' &&
    order.status === 'processing' &&
    order.confirmations < context.confirmationsRequired
  ) {
    return `Waiting for confirmations: ${order.confirmations} of ${context.confirmationsRequired}. The dollar payout unlocks after that.`;
  }
  if (order.type === 'buy' && order.status === 'pending') {
    return 'Waiting for the customer to pay.';
  }
  return null;
}

export const FLAG_LABEL: Record<string, string> = {
  late_deposit: 'Late deposit',
  underpaid: 'Underpaid',
  overpaid: 'Overpaid',
  extra_deposit: 'Extra deposit',
  vanished_tx: 'Vanished transaction',
  capture_mismatch: 'Capture mismatch',
  over_limit: 'Over the order limit',
  deposit_reversed: 'Deposit reversed',
  duplicate_reference: 'Duplicate bank reference',
};

export function flagLabel(flag: string): string {
  return FLAG_LABEL[flag] ?? flag.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** A 64-character hexadecimal transaction id (what the server accepts for a payout). */
export const TXID_PATTERN = /^[0-9a-f]{64}$/i;
/** A dollar payout reference: 4–100 letters, digits, spaces and . _ : / # - (as the server checks). */
export const REFERENCE_PATTERN = /^[\p{L}\p{N} ._:/#-]{4,100}$/u;

/** What an action's dialog collects: its text field (txid, reference, reason), an address and a note. */
export interface ActionFormValues {
  text: string;
  /** Only the bitcoin return asks for one: where the coins went. */
  address: string;
  note: string;
}

const REFERENCE_MESSAGE = (reference: string) =>
  reference.length < 4 || reference.length > 100
    ? 'Enter the payout reference (4 to 100 characters).'
    : 'Use letters, digits, spaces and . _ : / # - only.';

/**
 * Each action's form, read into the request body of `POST /api/admin/orders/:id/<kind>`: the text
 * field checked as the server checks it, the optional note added when given.
 */
export function actionFormSchema(kind: OrderActionKind): z.ZodType<Record<string, string>, ActionFormValues> {
  const withNote = (note: string): Record<string, string> => (note.trim() ? { note: note.trim() } : {});
  const form = <T extends z.ZodType<string, string>>(text: T) =>
    z.object({ text, address: z.string(), note: z.string() });
  switch (kind) {
    case 'mark-paid':
      return form(z.string()).transform(({ note }) => withNote(note));
    case 'send-btc':
      return form(z.string()).transform(() => ({}));
    case 'payout-btc':
      return form(
        z
          .string()
          .trim()
          .regex(TXID_PATTERN, { error: 'Enter the 64-character hexadecimal transaction id.' }),
      ).transform(({ text, note }) => ({ txid: text, ...withNote(note) }));
    case 'payout-usd':
      return form(
        z
          .string()
          .trim()
          .check((ctx) => {
            if (!REFERENCE_PATTERN.test(ctx.value)) {
              ctx.issues.push({ code: 'custom', message: REFERENCE_MESSAGE(ctx.value), input: ctx.value });
            }
          }),
      ).transform(({ text, note }) => ({ reference: text, ...withNote(note) }));
    case 'cancel':
      return form(reasonSchema('Give a reason of at least 3 characters.')).transform(({ text }) => ({
        reason: text,
      }));
    case 'refund-btc':
      return z
        .object({
          text: z
            .string()
            .trim()
            .regex(TXID_PATTERN, { error: 'Enter the 64-character hexadecimal transaction id.' }),
          address: bitcoinAddressField(undefined, 'Enter the bitcoin address the coins were sent to'),
          note: z.string(),
        })
        .transform(({ text, address, note }) => ({ address, txid: text, ...withNote(note) }));
    case 'resolve-flag':
      return form(reasonSchema('Write a note of at least 3 characters.')).transform(({ text }) => ({
        note: text,
      }));
  }
}
