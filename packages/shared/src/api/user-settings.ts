import { z } from 'zod';
import { EMAIL_PATTERN } from './accounts';

/** The customer's settings and the forms that change them. */

export const BANK_ROUTING_OR_SWIFT_MESSAGE = 'Enter routing number or SWIFT code.';
export const ZELLE_EMAIL_MESSAGE = 'Enter zelle payment email.';
export const ZELLE_EMAIL_INVALID_MESSAGE = 'Enter a valid Zelle payment email, like name@example.com.';
export const WALLET_ADDRESS_MESSAGE = 'Enter Valid Bitcoin Address';

// Stored as given and shown as text; control and bidi-override characters are refused.
const PLAIN_TEXT = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;
const plainText = (label: string, max: number) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, { error: `Enter the ${label}.` })
    .max(max, { error: `The ${label} can be at most ${max} characters.` })
    .regex(PLAIN_TEXT, { error: `The ${label} contains characters we cannot accept.` });

const optionalCode = (pattern: RegExp, message: string) =>
  z
    .string()
    .trim()
    .toUpperCase()
    .refine((value) => value === '' || pattern.test(value), { error: message })
    .optional()
    .default('');

export const bankAccountSchema = z
  .strictObject({
    account_name: plainText('account holder name', 100),
    account_number: z
      .string({ error: 'Enter the account number.' })
      .trim()
      .regex(/^[A-Za-z0-9]{4,34}$/, {
        error: 'Enter the account number: 4 to 34 letters or digits, no spaces.',
      }),
    bank_name: plainText('bank name', 100),
    address: plainText('bank address', 200),
    routing_number: optionalCode(/^\d{9}$/, 'A routing number has 9 digits.'),
    swift: optionalCode(
      /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/,
      'A SWIFT code has 8 or 11 letters and digits.',
    ),
  })
  .refine((bank) => bank.routing_number !== '' || bank.swift !== '', {
    error: BANK_ROUTING_OR_SWIFT_MESSAGE,
    path: ['routing_number'],
  });

export type BankAccount = z.infer<typeof bankAccountSchema>;
export type BankAccountInput = z.input<typeof bankAccountSchema>;

export const zelleEmailSchema = z
  .string({ error: ZELLE_EMAIL_MESSAGE })
  .trim()
  .min(1, { error: ZELLE_EMAIL_MESSAGE })
  .max(254, { error: 'The Zelle email can be at most 254 characters.' })
  .regex(PLAIN_TEXT, { error: ZELLE_EMAIL_INVALID_MESSAGE })
  // The same e-mail shape as sign-in: dollars sent to a malformed address would go nowhere.
  .regex(EMAIL_PATTERN, { error: ZELLE_EMAIL_INVALID_MESSAGE });

/** 16 characters of the 64-character URL-safe alphabet. */
export const REFERRAL_CODE_PATTERN = /^[A-Za-z0-9_-]{16}$/;

export const userSettingsSchema = z.object({
  bankAccount: z
    .object({
      bank_name: z.string(),
      account_name: z.string(),
      account_number: z.string(),
      address: z.string(),
      routing_number: z.string(),
      swift: z.string(),
    })
    .nullable(),
  walletAddress: z.string().nullable(),
  zelleEmail: z.string().nullable(),
  referralCode: z.string().nullable(),
  receiveEmail: z.boolean(),
  receiveSMS: z.boolean(),
});
export type UserSettings = z.infer<typeof userSettingsSchema>;

export const userIdSchema = z.string().max(100);

export const saveSettingsSchema = z
  .strictObject({
    userId: userIdSchema,
    bankAccount: bankAccountSchema.optional(),
    walletAddress: z.string().trim().max(100).optional(),
    receiveEmail: z.boolean().optional(),
    receiveSMS: z.boolean().optional(),
    referralCode: z
      .string()
      .regex(REFERRAL_CODE_PATTERN, { error: 'A referral code has 16 letters, digits, - or _.' })
      .optional(),
  })
  .refine(
    (body) =>
      [body.bankAccount, body.walletAddress, body.receiveEmail, body.receiveSMS, body.referralCode].filter(
        (v) => v !== undefined,
      ).length === 1,
    { error: 'Send exactly one setting to change.' },
  );

export const saveBankSchema = z.strictObject({ userId: userIdSchema, bankAccount: bankAccountSchema });
export const saveZelleSchema = z.strictObject({ userId: userIdSchema, zelleEmail: zelleEmailSchema });

/** Referral history row as the client reads it (docs/design.md). */
export const referralRecordSchema = z.object({
  _id: z.string(),
  referrer_id: z.string(),
  referred_id: z.string(),
  platform_fee: z.number(),
  reward_amount: z.number(),
  order_id: z.string(),
  createdAt: z.string(),
});
export type ReferralRecord = z.infer<typeof referralRecordSchema>;
