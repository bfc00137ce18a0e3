import { z } from 'zod';
import type { StepUpAction, StepUpDetails } from '@offzero/shared/api/passkeys';
import { apiPost, hasErrorCode } from './api-client';

const optionsAnswer = z.object({ options: z.record(z.string(), z.unknown()) });

/** base64url of UTF-8 text (the assertion JSON is ASCII, but a name might not be). */
function base64UrlOf(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The `X-Step-Up` header for one change (docs/design.md, "Passkeys"): the server makes a challenge for
 * this action and these details, the browser asks the customer for their passkey, and the assertion
 * goes back on the call it confirms.
 */
export async function passkeyStepUpHeaders<A extends StepUpAction>(
  action: A,
  details: StepUpDetails<A>,
): Promise<Record<string, string>> {
  const { options } = await apiPost('/step-up/options', { action, details }, { schema: optionsAnswer });
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const assertion = await startAuthentication({ optionsJSON: options as never });
  return { 'X-Step-Up': base64UrlOf(JSON.stringify(assertion)) };
}

/**
 * Runs a guarded call; when the server answers that a passkey must confirm it, asks for the passkey and
 * runs the same call again with the assertion (same body, same idempotency key).
 */
export async function withPasskeyStepUp<T, A extends StepUpAction>(
  action: A,
  details: StepUpDetails<A>,
  call: (headers?: Record<string, string>) => Promise<T>,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!hasErrorCode(error, 'PASSKEY_STEP_UP_REQUIRED')) throw error;
    return call(await passkeyStepUpHeaders(action, details));
  }
}
