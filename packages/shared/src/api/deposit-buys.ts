import { z } from 'zod';
import { scamCheckSchema } from '../places/scam-shield';

/**
 * "Buy bitcoin with every deposit" (docs/design.md, "Recurring buys"): an ACH credit to the customer's
 * own account number that pays no waiting buy becomes a buy, paid out to their chosen address-book
 * entry after the recurring hold.
 */

/** A deposit buy's way: claimed → holding → paid, or refused (the credit then waits for an operator). */
export const DEPOSIT_BUY_STATUSES = ['claimed', 'holding', 'paid', 'refused'] as const;
export type DepositBuyStatus = (typeof DEPOSIT_BUY_STATUSES)[number];

export const DEPOSIT_BUY_MESSAGES = {
  addressRequired: 'Choose the address-book entry your deposit buys are sent to.',
  turnedOn: 'Every deposit to your account number now buys bitcoin.',
  turnedOff: 'Deposits no longer buy bitcoin.',
  /** The credit's reason while it is on its way to becoming a buy. */
  becomingBuy: 'Becoming a deposit buy.',
  notAch: 'Only ACH deposits become deposit buys.',
} as const;

/** `PUT /api/plans/deposit-buys`. */
export const depositBuySettingRequestSchema = z.strictObject({
  enabled: z.boolean({ error: 'Say whether deposits should buy bitcoin.' }),
  /** Required when turning it on: one of the customer's confirmed address-book entries. */
  payoutAddressId: z.string().max(100).optional(),
  /** A new customer's answer to the first-buy question, kept with the setting. */
  scamCheck: scamCheckSchema.optional(),
});
export type DepositBuySettingRequest = z.infer<typeof depositBuySettingRequestSchema>;

export const depositBuySettingSchema = z.object({
  enabled: z.boolean(),
  payoutAddressId: z.string().nullable(),
});
export type DepositBuySetting = z.infer<typeof depositBuySettingSchema>;

export const depositBuySettingResponseSchema = z.object({
  setting: depositBuySettingSchema,
  message: z.string().optional(),
});
