import { useMutation } from '@tanstack/react-query';
import { messageResponseSchema, verifyEmailResponseSchema } from '@offzero/shared/api/accounts';
import { apiPost } from '../../../lib/api-client';

// Registration steps 1 and 2: an e-mail code, then its verification, which creates
// the account and hands back a short-lived registration token for the phone steps.
const purpose = 'new account' as const;

export function sendRegistrationCode(email: string) {
  return apiPost(
    '/verification/email/otp',
    { email, purpose },
    { schema: messageResponseSchema, on401: 'throw' },
  );
}

export function resendRegistrationCode(email: string) {
  return apiPost(
    '/verification/email/otp/resend',
    { email, purpose },
    { schema: messageResponseSchema, on401: 'throw' },
  );
}

export interface VerifyRegistrationEmailInput {
  email: string;
  code: string;
  referralCode: string;
}

export function verifyRegistrationEmail({ email, code, referralCode }: VerifyRegistrationEmailInput) {
  // An empty referral code is left out rather than sent as "".
  const body = referralCode ? { email, code, referralCode } : { email, code };
  return apiPost('/verification/verify/otp', body, { schema: verifyEmailResponseSchema, on401: 'throw' });
}

export const useSendRegistrationCode = () => useMutation({ mutationFn: sendRegistrationCode });
export const useVerifyRegistrationEmail = () => useMutation({ mutationFn: verifyRegistrationEmail });
