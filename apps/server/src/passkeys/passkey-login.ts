import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { UserRow } from '../db/schema';
import { AppError } from '../http/errors';
import { hashBinding } from './canonical-details';
import {
  AssertionRefused,
  assertionOptions,
  verifyAssertion,
  type CeremonyDeps,
} from './webauthn-ceremonies';

export const PASSKEY_LOGIN_FAILED =
  'We could not sign you in with this passkey. Try again or log in with an e-mail code.';

export interface LoginDeps extends CeremonyDeps {
  findUser: (userId: string) => Promise<UserRow | null>;
  findUserByEmail: (email: string) => Promise<UserRow | null>;
  log: { warn(obj: object, msg: string): void };
}

/**
 * Options for signing in with a passkey. The browser offers the discoverable passkeys it holds for this
 * site; a login that names an e-mail of an account is bound to that account, so another account's
 * passkey (an admin's for a customer, or the reverse) is refused. The answer is the same whether or not
 * the e-mail has an account.
 */
export async function loginOptions(
  deps: LoginDeps,
  email: string | undefined,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const named = email ? await deps.findUserByEmail(email) : null;
  const options = await assertionOptions(deps, { purpose: 'login', userId: named?.id ?? null });
  // Never list an account's credentials to whoever typed its e-mail.
  return { ...options, allowCredentials: [] };
}

/** The user handle the authenticator returned must be the account the passkey is registered to. */
function assertUserHandle(response: AuthenticationResponseJSON, userId: string): void {
  const handle = response.response.userHandle;
  if (handle === undefined || handle === null) return;
  if (Buffer.from(handle, 'base64url').toString('utf8') !== userId) {
    throw new AssertionRefused('user handle of another account');
  }
}

/** Verifies a login assertion: the account whose passkey signed (enabled), or 401. */
export async function verifyLogin(deps: LoginDeps, response: AuthenticationResponseJSON): Promise<UserRow> {
  try {
    const { passkey } = await verifyAssertion(deps, response, (challenge) => challenge.purpose === 'login');
    assertUserHandle(response, passkey.userId);
    const user = await deps.findUser(passkey.userId);
    if (!user || user.disabledAt) throw new AssertionRefused('account missing or disabled');
    return user;
  } catch (error) {
    if (!(error instanceof AssertionRefused)) throw error;
    deps.log.warn({ reason: error.message }, 'passkey login refused');
    throw new AppError('UNAUTHENTICATED', PASSKEY_LOGIN_FAILED);
  }
}

/** Options for an admin's second login step with a passkey, bound to that step's token. */
export async function secondFactorOptions(
  deps: CeremonyDeps,
  userId: string,
  mfaToken: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return assertionOptions(deps, { purpose: 'admin-mfa', userId, bindingHash: hashBinding({ mfaToken }) });
}

/** Verifies an admin's second-step assertion for exactly this step token and admin. */
export async function verifySecondFactor(
  deps: LoginDeps,
  userId: string,
  mfaToken: string,
  response: AuthenticationResponseJSON,
): Promise<void> {
  const binding = hashBinding({ mfaToken });
  try {
    await verifyAssertion(
      deps,
      response,
      (challenge) =>
        challenge.purpose === 'admin-mfa' && challenge.userId === userId && challenge.bindingHash === binding,
    );
  } catch (error) {
    if (!(error instanceof AssertionRefused)) throw error;
    deps.log.warn({ reason: error.message }, 'passkey second factor refused');
    throw new AppError('UNAUTHENTICATED', PASSKEY_LOGIN_FAILED);
  }
}
