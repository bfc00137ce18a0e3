import { z } from 'zod';

/** Lightning on an order: a sell's deposit choice and invoice, a buy's payout (docs/design.md, "Lightning"). */

/**
 * How a seller sends their bitcoin (docs/design.md, "Lightning"): on chain to the order's address, or
 * by Lightning to its invoice as well (one QR code carries both).
 */
export const SELL_DEPOSITS = ['onchain', 'lightning'] as const;
export const sellDepositSchema = z.enum(SELL_DEPOSITS, { error: 'Choose on-chain or Lightning.' });
export type SellDeposit = z.infer<typeof sellDepositSchema>;

/** The invoice a sell paid by Lightning carries, beside its on-chain address. */
export const orderLightningSchema = z.object({
  invoice: z.string(),
  paymentHash: z.string(),
  expiresAt: z.string(),
});

/**
 * A buy paid out by Lightning: the payout's state, the destination kind the customer gave, and once
 * settled the preimage, which is the proof of payment shown in the drawer and on the receipt.
 */
export const orderLightningPayoutSchema = z.object({
  status: z.enum(['requested', 'submitted', 'settled', 'failed']),
  destinationKind: z.enum(['invoice', 'lightning-address']),
  paymentHash: z.string().nullable(),
  preimage: z.string().nullable(),
  /** Routing fee paid, once settled (null before). */
  feeSats: z.number().nullable(),
  /** Why it failed, in words for the customer (null unless failed). */
  failureReason: z.string().nullable(),
  /** A failed payout the customer may try again or turn into an on-chain payout. */
  canRetry: z.boolean(),
});
export type OrderLightningPayout = z.infer<typeof orderLightningPayoutSchema>;
