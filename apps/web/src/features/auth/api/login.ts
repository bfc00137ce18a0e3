import { useMutation } from '@tanstack/react-query';
import {
  loginResponseSchema,
  messageResponseSchema,
  sessionResponseSchema,
} from '@offzero/shared/api/accounts';
import { apiPost } from '../../../lib/api-client';

// Login with an e-mail code, or with a Google ID token when Google sign-in is configured.

export function sendLoginCode(email: string) {
  return apiPost('/user/login-otp/send', { email }, { schema: messageResponseSchema, on401: 'throw' });
}

export function verifyLoginCode({ email, code }: { email: string; code: string }) {
  return apiPost('/user/login-otp/verify', { email, code }, { schema: loginResponseSchema, on401: 'throw' });
}

/** An admin with two-factor authentication: the authenticator code for the login's second step. */
export function verifyLoginMfa({ mfaToken, code }: { mfaToken: string; code: string }) {
  return apiPost(
    '/user/login-mfa/verify',
    { mfaToken, code },
    { schema: sessionResponseSchema, on401: 'throw' },
  );
}

export function googleLogin(credential: string) {
  return apiPost('/user/google/login', { credential }, { schema: loginResponseSchema, on401: 'throw' });
}

export const useSendLoginCode = () => useMutation({ mutationFn: sendLoginCode });
export const useVerifyLoginCode = () => useMutation({ mutationFn: verifyLoginCode });
export const useVerifyLoginMfa = () => useMutation({ mutationFn: verifyLoginMfa });
export const useGoogleLogin = () => useMutation({ mutationFn: googleLogin });
