import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { sessionResponseSchema } from '@offzero/shared/api/accounts';
import { apiPost } from '../../../lib/api-client';

// Signing in with a passkey alone, and an admin's second login step with a passkey instead of a
// code (docs/design.md, "Passkeys"). The browser's own passkey dialog is the prompt.

const optionsAnswer = z.object({ options: z.record(z.string(), z.unknown()) });

async function askForPasskey(options: Record<string, unknown>): Promise<unknown> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON: options as never });
}

export async function signInWithPasskey() {
  const { options } = await apiPost('/auth/passkey/options', {}, { schema: optionsAnswer, on401: 'throw' });
  const response = await askForPasskey(options);
  return apiPost('/auth/passkey/verify', { response }, { schema: sessionResponseSchema, on401: 'throw' });
}

export async function completeMfaWithPasskey(mfaToken: string) {
  const { options } = await apiPost(
    '/user/login-mfa/passkey/options',
    { mfaToken },
    { schema: optionsAnswer, on401: 'throw' },
  );
  const response = await askForPasskey(options);
  return apiPost(
    '/user/login-mfa/passkey/verify',
    { mfaToken, response },
    { schema: sessionResponseSchema, on401: 'throw' },
  );
}

export const useSignInWithPasskey = () => useMutation({ mutationFn: signInWithPasskey });
export const useCompleteMfaWithPasskey = () => useMutation({ mutationFn: completeMfaWithPasskey });
