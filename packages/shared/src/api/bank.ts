import { z } from 'zod';

/**
 * The bank with an API (docs/design.md, "Bank provider"): routing-number look-up, the customer's own
 * account number for ACH and wire buys, and the demo bank's helpers.
 */

export const ROUTING_NUMBER_MESSAGES = {
  invalid: 'This is not a valid routing number.',
  unknown: "We don't know this routing number.",
} as const;

export const routingNumberParamsSchema = z.object({
  routingNumber: z.string().max(32),
});

export const routingNumberResponseSchema = z.object({
  routingNumber: z.string(),
  bankName: z.string(),
  ach: z.boolean(),
  wire: z.boolean(),
  rtp: z.boolean(),
  fednow: z.boolean(),
});
export type RoutingNumberResponse = z.infer<typeof routingNumberResponseSchema>;

/** The customer's own account and routing number, which their ACH and wire buys are paid into. */
export const fundingResponseSchema = z.object({
  accountNumber: z.string(),
  routingNumber: z.string(),
  bankName: z.string(),
  accountHolder: z.string(),
});
export type FundingResponse = z.infer<typeof fundingResponseSchema>;

export const INBOUND_RAILS = ['ach', 'wire', 'instant'] as const;

/** Demo: someone sends money to an account number of the demo bank. */
export const devBankInboundBodySchema = z.object({
  accountNumber: z
    .string()
    .trim()
    .regex(/^\d{4,17}$/, 'An account number is 4 to 17 digits.'),
  amount: z.number().positive().max(10_000_000),
  originatorName: z.string().trim().min(1).max(100),
  rail: z.enum(INBOUND_RAILS),
  traceNumber: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{1,40}$/, 'A trace number is 1 to 40 letters or digits.')
    .optional(),
});

export const devBankInboundResponseSchema = z.object({
  transferId: z.string(),
  traceNumber: z.string(),
});

export const devBankTransferParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const devBankReturnBodySchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^R\d\d$/, 'A NACHA return code is R and two digits, for example R01.'),
});
export const devBankTransfersQuerySchema = z.object({
  accountNumber: z
    .string()
    .trim()
    .regex(/^\d{4,17}$/, 'An account number is 4 to 17 digits.'),
});

export const bankTransferSchema = z.object({
  id: z.string(),
  kind: z.enum(['ach_credit', 'ach_debit', 'wire', 'rtp', 'fednow']),
  direction: z.enum(['outbound', 'inbound']),
  amount: z.number(),
  status: z.enum(['pending', 'submitted', 'settled', 'rejected', 'returned']),
  traceNumber: z.string().nullable(),
  counterparty: z
    .object({ accountNumber: z.string(), routingNumber: z.string(), name: z.string() })
    .nullable(),
  returnCode: z.string().nullable(),
  createdAt: z.string(),
  settledAt: z.string().nullable(),
});
export type BankTransferView = z.infer<typeof bankTransferSchema>;

export const devBankTransferResponseSchema = z.object({ transfer: bankTransferSchema });
export const devBankTransfersResponseSchema = z.object({ transfers: z.array(bankTransferSchema) });
