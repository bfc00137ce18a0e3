import { useMutation } from '@tanstack/react-query';
import { messageResponseSchema, sessionResponseSchema } from '@offzero/shared/api/accounts';
import { apiPost } from '../../../lib/api-client';

// Login with an e-mail code, or with a Google ID token when Google sign-in is configured.

export function sendLoginCode(email: string) {
  return apiPost('/user/login-otp/send', { email }, { schema: messageResponseSchema, on401: 'throw' });
}

export function verifyLoginCode({ email, code }: { email: string; code: string }) {
  return apiPost(
    '/user/login-otp/verify',
    { email, code },
    { schema: sessionResponseSchema, on401: 'throw' },
  );
}

export function googleLogin(credential: string) {
  return apiPost('/user/google/login', { credential }, { schema: sessionResponseSchema, on401: 'throw' });
}

export const useSendLoginCode = () => useMutation({ mutationFn: sendLoginCode });
export const useVerifyLoginCode = () => useMutation({ mutationFn: verifyLoginCode });
export const useGoogleLogin = () => useMutation({ mutationFn: googleLogin });
