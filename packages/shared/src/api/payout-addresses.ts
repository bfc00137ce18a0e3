import { z } from 'zod';

/**
 * The payout address book (docs/design.md): where a customer's bought bitcoin may be sent. Each entry
 * is a plain address or an extended public key (a fresh address of it per buy); a new entry is
 * confirmed from an e-mailed link and becomes usable after a cooldown.
 */

/** The most entries (removed ones not counted) one customer keeps. */
export const PAYOUT_ADDRESS_LIMIT = 20;
export const PAYOUT_ADDRESS_LABEL_MAX = 50;

/** The message a customer signs (BIP-322) to prove they hold the key of an entry's address. */
export function ownershipProofMessage(userId: string, address: string): string {
  return `OffZero address ownership: ${userId} ${address}`;
}

// Stored as given and shown as text; control, format (bidi) and separator characters are refused.
const PLAIN_TEXT = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;

export const payoutAddressLabelSchema = z
  .string({ error: 'Enter a label, like "Hardware wallet".' })
  .trim()
  .min(1, { error: 'Enter a label, like "Hardware wallet".' })
  .max(PAYOUT_ADDRESS_LABEL_MAX, {
    error: `The label can be at most ${PAYOUT_ADDRESS_LABEL_MAX} characters.`,
  })
  .regex(PLAIN_TEXT, { error: 'The label contains characters we cannot accept.' });

/** `POST /api/payout-addresses`: a label and exactly one of an address or an extended public key. */
export const addPayoutAddressSchema = z
  .strictObject({
    label: payoutAddressLabelSchema,
    // Room for a key pasted into the wrong field: the server reads it as a key (and refuses a private one).
    address: z.string().trim().min(1).max(200).optional(),
    xpub: z.string().trim().min(1).max(200).optional(),
  })
  .refine((body) => (body.address === undefined) !== (body.xpub === undefined), {
    error: 'Give either a bitcoin address or an extended public key (xpub, zpub, vpub…), not both.',
    path: ['address'],
  });
export type AddPayoutAddressRequest = z.infer<typeof addPayoutAddressSchema>;

export const PAYOUT_ADDRESS_STATUSES = ['unconfirmed', 'confirmed', 'usable'] as const;
export const payoutAddressStatusSchema = z.enum(PAYOUT_ADDRESS_STATUSES);
export type PayoutAddressStatus = z.infer<typeof payoutAddressStatusSchema>;

export const payoutAddressSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** A plain address; for an xpub entry, null. */
  address: z.string().nullable(),
  xpub: z.string().nullable(),
  status: payoutAddressStatusSchema,
  /** A BIP-322 signature proved the customer holds its key. */
  proven: z.boolean(),
  /** When a confirmed entry may first be paid; null until confirmed. */
  usableAt: z.string().nullable(),
  /** The Settings wallet card's address: new buys propose it. */
  isDefault: z.boolean(),
  /** The address an ownership proof signs: the address, or an xpub's first (`m/0/0`). */
  proofAddress: z.string(),
  createdAt: z.string(),
});
export type PayoutAddress = z.infer<typeof payoutAddressSchema>;

export const payoutAddressListSchema = z.object({ payoutAddresses: z.array(payoutAddressSchema) });
export const payoutAddressResponseSchema = z.object({ payoutAddress: payoutAddressSchema });
export const payoutAddressMessageSchema = z.object({
  message: z.string(),
  payoutAddress: payoutAddressSchema,
});

export const payoutAddressParamsSchema = z.strictObject({ id: z.string().max(100) });
export const confirmPayoutAddressSchema = z.strictObject({
  token: z.string({ error: 'The confirmation link is incomplete.' }).trim().min(1).max(200),
});
export const proveOwnershipSchema = z.strictObject({
  signature: z
    .string({ error: 'Paste the signature your wallet made.' })
    .trim()
    .min(1, { error: 'Paste the signature your wallet made.' })
    .max(4000, { error: 'This signature is too long to be a BIP-322 signature.' }),
});

/** Whether the text looks like an extended key (so the form can tell which field it fills). */
export function looksLikeExtendedKey(text: string): boolean {
  return /^[xyztuvXYZTUV](pub|prv)[1-9A-HJ-NP-Za-km-z]{100,}$/.test(text.trim());
}
