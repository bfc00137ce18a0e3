import { isValidPhoneNumber } from 'libphonenumber-js/max';
import { z } from 'zod';
import { PHONE_MESSAGE, emailSchema, otpCodeSchema } from './accounts';

/**
 * Phone number rules and the phone verification requests. Kept apart from ./accounts
 * because libphonenumber's metadata is large: the web app loads it only where a phone number is typed.
 */

/** Phone numbers travel in E.164 form (+14155550123): at most 15 digits, valid for their country. */
export const phoneSchema = z
  .string({ error: PHONE_MESSAGE })
  .trim()
  .regex(/^\+[1-9]\d{1,14}$/, { error: PHONE_MESSAGE })
  .refine((value) => isValidPhoneNumber(value), { error: PHONE_MESSAGE });

export const phoneOtpRequestSchema = z.strictObject({
  email: emailSchema,
  phone: phoneSchema,
  registrationToken: z.string().max(2048).optional(),
  /** Changing a verified number: the step-up code sent to the current e-mail (docs/design.md). */
  stepUpCode: otpCodeSchema.optional(),
});
export const verifyPhoneOtpSchema = phoneOtpRequestSchema.extend({ code: otpCodeSchema });
