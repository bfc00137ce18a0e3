import { isValidPhoneNumber } from 'react-phone-number-input/max';
import {
  EMAIL_MESSAGE,
  OTP_MESSAGE,
  PHONE_MESSAGE,
  isEmailShaped,
  referralCodeSchema,
} from '@offzero/shared/api/accounts';

// The client-side checks of spec section 5, run when a step is submitted. Each returns the message to
// show, or null when the value may be sent. The server checks everything again.

export const CODE_FORMAT_MESSAGE = 'Enter the 6-digit code we sent you.';
const MAX_PHONE_DIGITS = 15;

/** Required, and shaped like an e-mail address. */
export function emailError(email: string): string | null {
  const value = email.trim();
  return value === '' || !isEmailShaped(value) ? EMAIL_MESSAGE : null;
}

/** Required ('Provide OTP code'), then six digits. */
export function codeError(code: string): string | null {
  const value = code.trim();
  if (value === '') return OTP_MESSAGE;
  return /^\d{6}$/.test(value) ? null : CODE_FORMAT_MESSAGE;
}

/** At least one digit, at most 15, and a number that can exist in its country. */
export function phoneError(phone: string | undefined): string | null {
  const digits = (phone ?? '').replace(/\D/g, '');
  if (digits.length === 0 || digits.length > MAX_PHONE_DIGITS) return PHONE_MESSAGE;
  return isValidPhoneNumber(phone ?? '') ? null : PHONE_MESSAGE;
}

/** Optional; when given, only the characters codes are made of. */
export function referralCodeError(referralCode: string): string | null {
  const result = referralCodeSchema.safeParse(referralCode);
  return result.success ? null : (result.error.issues[0]?.message ?? 'This referral code is not valid.');
}
