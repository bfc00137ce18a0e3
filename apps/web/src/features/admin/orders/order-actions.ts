import { z } from 'zod';
import type { AdminOrder } from '@offzero/shared/api/admin';
import { reasonSchema } from '../components/action-dialog';

/** The back office's order actions; each is the last segment of `POST /api/admin/orders/:id/<kind>`. */
export type OrderActionKind =
  'mark-paid' | 'payout-btc' | 'send-btc' | 'payout-usd' | 'cancel' | 'resolve-flag';

export interface ActionContext {
  /** Confirmations a sell deposit needs before the dollars go out (from the order detail answer). */
  confirmationsRequired: number;
  /** Demo mode: the simulated chain can send the bitcoin itself. */
  demo: boolean;
}

type ActionableOrder = Pick<
  AdminOrder,
  'type' | 'status' | 'paymentConfirmedAt' | 'confirmations' | 'flag' | 'walletAddress'
>;

/**
 * The actions that fit the order's state, in the order the console offers them. The server checks
 * every one again (409 from a wrong state); this only keeps impossible buttons off the screen.
 *
 * - buy, processing, payment not yet confirmed → mark the payment received
 * - buy, processing, payment confirmed → record the payout txid (and, in demo, send it on the demo chain)
 * - sell, processing, deposit confirmed enough → record the dollar payout
 * - pending, processing or expired → cancel
 * - flagged (any state) → resolve the flag
 */
export function availableActions(order: ActionableOrder, context: ActionContext): OrderActionKind[] {
  const actions: OrderActionKind[] = [];
  if (order.type === 'buy' && order.status === 'processing') {
    if (!order.paymentConfirmedAt) {
      actions.push('mark-paid');
    } else {
      actions.push('payout-btc');
      if (context.demo && typeof order.walletAddress === 'string' && order.walletAddress !== '') {
        actions.push('send-btc');
      }
    }
  }
  if (
    order.type === 'sell' &&
    order.status === 'processing' &&
    order.confirmations >= context.confirmationsRequired
  ) {
    actions.push('payout-usd');
  }
  if (order.status === 'pending' || order.status === 'processing' || order.status === 'expired') {
    actions.push('cancel');
  }
  if (order.flag) actions.push('resolve-flag');
  return actions;
}

/** Why nothing can move the order forward yet, when that is worth saying (null otherwise). */
export function waitingReason(order: ActionableOrder, context: ActionContext): string | null {
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
};

export function flagLabel(flag: string): string {
  return FLAG_LABEL[flag] ?? flag.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/** A 64-character hexadecimal transaction id (what the server accepts for a payout). */
export const TXID_PATTERN = /^[0-9a-f]{64}$/i;
/** A dollar payout reference: 4–100 letters, digits, spaces and . _ : / # - (as the server checks). */
export const REFERENCE_PATTERN = /^[\p{L}\p{N} ._:/#-]{4,100}$/u;

/** What an action's dialog collects: its one text field (txid, reference, reason) and a note. */
export interface ActionFormValues {
  text: string;
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
  const form = <T extends z.ZodType<string, string>>(text: T) => z.object({ text, note: z.string() });
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
    case 'resolve-flag':
      return form(reasonSchema('Write a note of at least 3 characters.')).transform(({ text }) => ({
        note: text,
      }));
  }
}
