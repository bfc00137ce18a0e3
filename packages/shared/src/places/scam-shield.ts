import { z } from 'zod';

/**
 * The scam shield (docs/design.md, "Places and the scam shield"): the question a new customer answers
 * before their first buy, the guidance for one who was asked to buy by someone else, and the cooling-off
 * cancel. Exact words shared by the server's answers and the web app's screens.
 */

/** A customer is new for this long after their identity was approved. */
export const NEW_CUSTOMER_HOURS = 72;

/** `order/save`'s answer before the first buy: the wallet is theirs, and nobody asked them to buy. */
export const scamCheckSchema = z.strictObject({
  ownWallet: z.boolean({ error: 'Tell us whether the wallet is your own.' }),
  someoneAskedMe: z.boolean({ error: 'Tell us whether someone asked you to buy.' }),
});
export type ScamCheck = z.infer<typeof scamCheckSchema>;

export const SCAM_GUIDANCE_LINES = [
  'Stop: do not send money or bitcoin to anyone who contacted you.',
  'Government agencies, banks, tech support, and employers never ask you to pay in bitcoin.',
  'Report it to the FBI at ic3.gov and to the FTC at reportfraud.ftc.gov.',
  'Call your bank using the number on the back of your card.',
] as const;

export const SCAM_MESSAGES = {
  questionMissing:
    'Before your first purchase, confirm that the wallet is your own and that nobody asked you to buy bitcoin.',
  notOwnWallet:
    'Only buy bitcoin for a wallet you own and control. If someone gave you this address, it is a scam.',
  /** The 400 answer when someone asked the customer to buy: no order, and who to call. */
  someoneAsked:
    'We stopped this purchase: someone asking you to buy bitcoin is the most common scam. ' +
    SCAM_GUIDANCE_LINES.join(' '),
  newCustomerCap: (left: string) =>
    `New customers can buy up to a daily limit for their first 3 days. You can buy up to ${left} more today.`,
  cancelLabel: 'Cancel — I think this is a scam',
  cancelled:
    'We cancelled this order. Your money goes back to the way you paid; we will contact you. ' +
    'Report the scam at ic3.gov and reportfraud.ftc.gov, and call your bank.',
  tooLateToCancel: 'The bitcoin of this order is already on its way, so it can no longer be cancelled.',
} as const;

/** `POST /api/order/:id/scam-cancel` takes nothing but the order in its path. */
export const scamCancelResponseSchema = z.object({ message: z.string() });
