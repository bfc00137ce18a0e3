import { z } from 'zod';
import {
  OTP_MESSAGE,
  emailSchema,
  otpCodeSchema,
  phoneSchema,
  referralCodeSchema,
} from '@offzero/shared/api/accounts';

// The forms of the sign-in and registration steps (spec section 5), checked when a step is submitted
// with the shared rules the server applies to the same fields. The server checks everything again.

export const CODE_FORMAT_MESSAGE = 'Enter the 6-digit code we sent you.';

/** Registration step 1: the address (required, e-mail shaped) and an optional referral code. */
export const registerEmailFormSchema = z.object({ email: emailSchema, referralCode: referralCodeSchema });

/** Login step 1: the address to send the code to. */
export const loginEmailFormSchema = z.object({ email: emailSchema });

/** A one-time code: required ('Provide OTP code'), then six digits. */
export const codeFormSchema = z.object({
  code: z.string().trim().min(1, { error: OTP_MESSAGE }).pipe(otpCodeSchema),
});
export type CodeForm = z.input<typeof codeFormSchema>;

/**
 * The SMS code step checks the phone it was sent to as well, and reports a bad number as a missing
 * code (spec section 5).
 */
export function smsCodeFormSchema(phone: string): z.ZodType<{ code: string }, CodeForm> {
  return phoneSchema.safeParse(phone).success
    ? codeFormSchema
    : z.object({ code: z.string().refine(() => false, { error: OTP_MESSAGE }) });
}

/** The phone number (E.164 from the phone field, undefined while nothing usable is typed). */
export const phoneFormSchema = z
  .object({ phone: z.string().optional() })
  .pipe(z.object({ phone: phoneSchema }));
