import { z } from 'zod';

/**
 * Payout batches (docs/design.md, `/api/admin/payouts/*`): one bitcoin transaction from the operator's
 * watch-only payout wallet paying several buys, built as an unsigned PSBT, signed in the operator's own
 * wallet, uploaded, checked and broadcast by the server.
 */

export const FEE_TIERS = ['economy', 'standard', 'priority'] as const;
export const feeTierSchema = z.enum(FEE_TIERS);
export type FeeTier = z.infer<typeof feeTierSchema>;

/** What a payout batch is doing (docs/design.md). */
export const PAYOUT_BATCH_STATUSES = [
  /** Built: the unsigned PSBT waits for the operator's wallet. */
  'awaiting_signature',
  /** The signed transaction is recorded (the intent) and is being handed to the network. */
  'broadcasting',
  /** On the network, not yet in a block; its orders are completed. */
  'broadcast',
  /** In a block. */
  'confirmed',
  /** A fee-bumped version took its place. */
  'replaced',
  /** Dropped by staff before it was signed; its orders are free for another batch. */
  'abandoned',
] as const;
export const payoutBatchStatusSchema = z.enum(PAYOUT_BATCH_STATUSES);
export type PayoutBatchStatus = z.infer<typeof payoutBatchStatusSchema>;

/** A batch's state in words, for staff. */
export const payoutBatchStatusText: Record<PayoutBatchStatus, string> = {
  awaiting_signature: 'Waiting for signature',
  broadcasting: 'Broadcasting',
  broadcast: 'Broadcast, waiting for confirmation',
  confirmed: 'Confirmed',
  replaced: 'Replaced by a fee bump',
  abandoned: 'Abandoned',
};

export const payoutBatchSchema = z.object({
  id: z.string(),
  status: payoutBatchStatusSchema,
  orderIds: z.array(z.string()),
  feeSats: z.number(),
  txid: z.string().nullable(),
  feeTier: feeTierSchema,
  /** sat/vB the fee was computed at. */
  feeRate: z.number(),
  /** BTC paid to customers, and the change back to the wallet (decimal strings, 8 places). */
  payoutAmount: z.string(),
  changeAmount: z.string(),
  changeAddress: z.string().nullable(),
  outputs: z.array(
    z.object({ orderId: z.string(), address: z.string(), amount: z.string(), vout: z.number().nullable() }),
  ),
  inputCount: z.number(),
  /** The batch this one fee-bumps, and the version that fee-bumped this one. */
  replacesBatchId: z.string().nullable(),
  replacedByBatchId: z.string().nullable(),
  confirmations: z.number().nullable(),
  explorerUrl: z.string().nullable(),
  createdAt: z.string(),
  broadcastAt: z.string().nullable(),
});
export type PayoutBatch = z.infer<typeof payoutBatchSchema>;

/** `POST /api/admin/payouts/batches` and `GET /api/admin/payouts/batches/:id`. */
export const payoutBatchAnswerSchema = z.object({
  batch: payoutBatchSchema,
  /** The unsigned PSBT, base64. */
  psbt: z.string(),
  /** Paid buys that the batch left out, and why (no usable address, screening). */
  skipped: z.array(z.object({ orderId: z.string(), reason: z.string() })).optional(),
});
export type PayoutBatchAnswer = z.infer<typeof payoutBatchAnswerSchema>;

export const payoutBatchListSchema = z.object({ batches: z.array(payoutBatchSchema) });

export const dueBuySchema = z.object({
  orderId: z.string(),
  address: z.string().nullable(),
  amount: z.string(),
  usable: z.boolean(),
  reason: z.string().nullable(),
  paidAt: z.string().nullable(),
});
export const dueBuyListSchema = z.object({
  dueBuys: z.array(dueBuySchema),
  /** Whether a payout wallet is configured (no batches without one). */
  walletConfigured: z.boolean(),
  feeCapPercent: z.number(),
});
export type DueBuy = z.infer<typeof dueBuySchema>;
export type DueBuyList = z.infer<typeof dueBuyListSchema>;

/** A PSBT as base64 text, as uploaded (whitespace and line breaks allowed). */
export const signedPsbtBodySchema = z.strictObject({
  psbt: z
    .string()
    .trim()
    .min(1, { error: 'Paste or upload the signed PSBT.' })
    .max(400_000, { error: 'This PSBT is too large for a payout batch.' })
    .regex(/^[A-Za-z0-9+/=\s]+$/, {
      error: 'The PSBT must be base64 text (upload the .psbt file or paste it).',
    }),
});
