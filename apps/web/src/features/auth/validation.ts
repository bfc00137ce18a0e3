import { z } from 'zod';
import { OTP_MESSAGE, emailSchema, otpCodeSchema, referralCodeSchema } from '@offzero/shared/api/accounts';

// The forms of the sign-in and registration steps, checked when a step is submitted
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
