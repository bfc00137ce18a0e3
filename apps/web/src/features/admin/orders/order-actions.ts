import { z } from 'zod';
import { ORDER_FLAG_LABEL, type OrderActionKind } from '@offzero/shared/api/admin';
import { inWords } from '@offzero/shared/api/orders';
import { bitcoinAddressField } from '@offzero/shared/bitcoin/address-field';
import { reasonSchema } from '../components/action-dialog';

export type { OrderActionKind };

/** A flag in words: its label, or its code tidied. */
export function flagLabel(flag: string): string {
  return inWords(flag, ORDER_FLAG_LABEL);
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
    case 'refund-usd':
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
