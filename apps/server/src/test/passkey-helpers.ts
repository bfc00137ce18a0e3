import type { InjectOptions } from 'fastify';
import type { StepUpAction } from '@offzero/shared/api/passkeys';
import type { RegisteredCustomer } from './accounts-helpers';
import { SoftAuthenticator, stepUpHeader } from './soft-authenticator';
import type { TestApp } from './test-app';

/** The origin and RP id the app under test expects: those of its PUBLIC_URL. */
export function siteOf(t: TestApp): { origin: string; rpId: string } {
  const url = new URL(t.config.publicUrl);
  return { origin: url.origin, rpId: url.hostname };
}

async function ok<T>(promise: ReturnType<TestApp['request']>): Promise<T> {
  const response = await promise;
  if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
  return response.json<T>();
}

/** A step-up assertion for `action` and `details`, as the `X-Step-Up` header value. */
export async function stepUp(
  t: TestApp,
  who: RegisteredCustomer,
  authenticator: SoftAuthenticator,
  action: StepUpAction,
  details: Record<string, unknown>,
): Promise<string> {
  const { options } = await ok<{ options: { challenge: string } }>(
    t.request({
      method: 'POST',
      url: '/api/step-up/options',
      headers: who.auth,
      payload: { action, details },
    }),
  );
  return stepUpHeader(authenticator.assert(options, siteOf(t)));
}

/** `who`'s signed-in headers, with an `X-Step-Up` assertion when one is given. */
export function withStepUp(who: RegisteredCustomer, header?: string): Record<string, string> {
  return { ...who.auth, ...(header ? { 'x-step-up': header } : {}) };
}

/** A guarded call by `who`, confirmed with a fresh step-up made for `action` and `details`. */
export async function requestWithStepUp(
  t: TestApp,
  who: RegisteredCustomer,
  authenticator: SoftAuthenticator,
  step: { action: StepUpAction; details: Record<string, unknown> },
  call: Pick<InjectOptions, 'method' | 'url' | 'payload'>,
): ReturnType<TestApp['request']> {
  const header = await stepUp(t, who, authenticator, step.action, step.details);
  return t.request({ ...call, headers: withStepUp(who, header) });
}

/** Registers a new software passkey for `who` (with `header` when another passkey must confirm it). */
export async function registerPasskey(
  t: TestApp,
  who: RegisteredCustomer,
  name = 'Test key',
  header?: string,
): Promise<{ authenticator: SoftAuthenticator; id: string }> {
  const { options } = await ok<{ options: { challenge: string; rp: { id?: string }; user: { id: string } } }>(
    t.request({
      method: 'POST',
      url: '/api/passkeys/registration/options',
      headers: withStepUp(who, header),
      payload: { name },
    }),
  );
  const authenticator = new SoftAuthenticator();
  const { passkey } = await ok<{ passkey: { id: string } }>(
    t.request({
      method: 'POST',
      url: '/api/passkeys/registration/verify',
      headers: who.auth,
      payload: { response: authenticator.register(options, siteOf(t)) },
    }),
  );
  return { authenticator, id: passkey.id };
}
