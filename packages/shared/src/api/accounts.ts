import { z } from 'zod';

/** Request and answer shapes of registration, login and profile calls. */

export const EMAIL_MESSAGE = 'Enter a valid email';
export const OTP_MESSAGE = 'Provide OTP code';
export const PHONE_MESSAGE = 'Provide a valid phone number';

// The basic pattern of Something@something.something, no spaces.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The client-side rule: empty is allowed (the field's own "required" handles it). */
export function isEmailShaped(value: string): boolean {
  return value === '' || EMAIL_PATTERN.test(value);
}

export const emailSchema = z
  .string({ error: EMAIL_MESSAGE })
  .trim()
  .toLowerCase()
  .max(254, { error: EMAIL_MESSAGE })
  .regex(EMAIL_PATTERN, { error: EMAIL_MESSAGE });

export const otpCodeSchema = z
  .string({ error: OTP_MESSAGE })
  .trim()
  .regex(/^\d{6}$/, { error: 'Enter the 6-digit code we sent you.' });

// The phone number rules (libphonenumber's metadata, about 50 kB gzip) live in ./phone, so that the
// web app loads them only on the screens that take a phone number.

// Names are stored as given and shown as text, but control and formatting characters are refused.
const NAME_PATTERN = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;
export const personNameSchema = (label: string) =>
  z
    .string({ error: `Enter your ${label}.` })
    .trim()
    .min(1, { error: `Enter your ${label}.` })
    .max(60, { error: `Your ${label} can be at most 60 characters.` })
    .regex(NAME_PATTERN, { error: `Your ${label} contains characters we cannot accept.` });

export const referralCodeSchema = z
  .string()
  .trim()
  .max(64, { error: 'This referral code is not valid.' })
  .regex(/^[A-Za-z0-9_-]*$/, { error: 'This referral code is not valid.' });

export const emailOtpRequestSchema = z.strictObject({
  email: emailSchema,
  purpose: z.literal('new account').optional(),
});
export const verifyEmailOtpSchema = z.strictObject({
  email: emailSchema,
  code: otpCodeSchema,
  referralCode: referralCodeSchema.optional(),
});
export const loginOtpRequestSchema = z.strictObject({ email: emailSchema });
export const verifyLoginOtpSchema = z.strictObject({ email: emailSchema, code: otpCodeSchema });
export const googleLoginSchema = z.strictObject({ credential: z.string().min(1).max(4096) });
export const profileUpdateSchema = z.strictObject({
  firstName: personNameSchema('first name'),
  lastName: personNameSchema('last name'),
  email: z.string().optional(),
});

export const userSchema = z.object({
  _id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phoneNumber: z.string().nullable(),
  email_verified: z.boolean(),
  phone_verified: z.boolean(),
  image: z.string().nullable(),
  role: z.enum(['customer', 'admin']),
});
export type User = z.infer<typeof userSchema>;

export const messageResponseSchema = z.object({ message: z.string() });
export const sessionResponseSchema = z.object({ message: z.string(), token: z.string(), user: userSchema });
export type SessionResponse = z.infer<typeof sessionResponseSchema>;
/** An admin with two-factor authentication: the login code opens the second step, not a session. */
export const mfaChallengeResponseSchema = z.object({
  message: z.string(),
  mfaRequired: z.literal(true),
  mfaToken: z.string(),
});
export type MfaChallengeResponse = z.infer<typeof mfaChallengeResponseSchema>;
/** `POST /api/user/login-otp/verify` and Google sign-in: a session, or the second step for an admin. */
export const loginResponseSchema = z.union([sessionResponseSchema, mfaChallengeResponseSchema]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;
export const verifyLoginMfaSchema = z.strictObject({
  mfaToken: z.string().min(1).max(200),
  code: otpCodeSchema,
});
/** Changing the e-mail: the step-up code first, then the code sent to the new address. */
export const emailChangeRequestSchema = z.strictObject({ newEmail: emailSchema, stepUpCode: otpCodeSchema });
export const emailChangeVerifySchema = z.strictObject({ newEmail: emailSchema, code: otpCodeSchema });
export const userAnswerSchema = z.object({ message: z.string(), user: userSchema });
export const mfaEnrolmentSchema = z.object({ secret: z.string(), otpauthUrl: z.string() });
export const mfaCodeSchema = z.strictObject({ code: otpCodeSchema });
/** `enrolled`: the admin has a second factor (TOTP or a passkey); `totp`: an authenticator app is set up. */
export const mfaStatusSchema = z.object({
  enrolled: z.boolean(),
  required: z.boolean(),
  totp: z.boolean().optional(),
});
export const verifyEmailResponseSchema = z.object({ message: z.string(), registrationToken: z.string() });
