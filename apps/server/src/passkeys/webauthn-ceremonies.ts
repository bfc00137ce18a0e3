import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { PASSKEY_CHALLENGE_TTL_MS } from '@offzero/shared/api/passkeys';
import type { Database } from '../db/database';
import {
  consumeChallenge,
  findChallenge,
  findPasskeyByCredentialId,
  insertChallenge,
  listPasskeys,
  recordPasskeyUse,
  type PasskeyChallengeRow,
  type PasskeyRow,
} from './passkey.repository';

/**
 * The relying party is the site at PUBLIC_URL: its host name is the RP id and its origin the only
 * origin accepted (docs/design.md, "Passkeys").
 */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, name: 'OffZero', origin: url.origin };
}

export interface CeremonyDeps {
  db: Database;
  party: RelyingParty;
  now: () => Date;
}

/** Why an assertion was not accepted (the caller turns it into its own answer; the log gets it). */
export class AssertionRefused extends Error {}

export type ChallengeBinding = Pick<
  PasskeyChallengeRow,
  'purpose' | 'userId' | 'action' | 'bindingHash' | 'passkeyName'
>;

/** A fresh random challenge stored with what it is for; five minutes, single use. */
export async function openChallenge(
  deps: CeremonyDeps,
  binding: Partial<ChallengeBinding> & {
    purpose: PasskeyChallengeRow['purpose'];
  },
): Promise<string> {
  const challenge = randomBytes(32).toString('base64url');
  await insertChallenge(deps.db, {
    challenge,
    purpose: binding.purpose,
    userId: binding.userId ?? null,
    action: binding.action ?? null,
    bindingHash: binding.bindingHash ?? null,
    passkeyName: binding.passkeyName ?? null,
    expiresAt: new Date(deps.now().getTime() + PASSKEY_CHALLENGE_TTL_MS),
  });
  return challenge;
}

/** The bytes of a stored (base64url) challenge, which the options carry encoded as that same text. */
export function challengeBytes(challenge: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(challenge, 'base64url'));
}

/** Request options for an assertion by one of `userId`'s passkeys (or any, for a login naming no one). */
export async function assertionOptions(
  deps: CeremonyDeps,
  binding: Partial<ChallengeBinding> & { purpose: PasskeyChallengeRow['purpose'] },
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const challenge = await openChallenge(deps, binding);
  const own = binding.userId ? await listPasskeys(deps.db, binding.userId) : [];
  return generateAuthenticationOptions({
    rpID: deps.party.id,
    // As bytes: a string challenge would be read as text and encoded again.
    challenge: challengeBytes(challenge),
    userVerification: 'required',
    timeout: 120_000,
    allowCredentials: own.map((passkey) => ({
      id: passkey.credentialId,
      transports: passkey.transports,
    })),
  });
}

/** The challenge the client data of a WebAuthn response says it answers. */
export function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string {
  const encoded = response.response?.clientDataJSON;
  if (typeof encoded !== 'string') throw new AssertionRefused('no client data');
  try {
    const data = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { challenge?: unknown };
    if (typeof data.challenge !== 'string') throw new AssertionRefused('client data has no challenge');
    return data.challenge;
  } catch (error) {
    if (error instanceof AssertionRefused) throw error;
    throw new AssertionRefused('client data is not JSON');
  }
}

/**
 * Verifies an assertion against the live challenge it answers: the challenge's purpose and binding
 * (`accept` decides), a credential registered to the challenge's user (any user's, for a login that
 * named no one), the signature, origin, RP id, user verification, and a signature counter that moves
 * forward. Uses the challenge up. Returns the passkey and the challenge.
 */
export async function verifyAssertion(
  deps: CeremonyDeps,
  response: AuthenticationResponseJSON,
  accept: (challenge: PasskeyChallengeRow) => boolean,
): Promise<{ passkey: PasskeyRow; challenge: PasskeyChallengeRow }> {
  const at = deps.now();
  const challenge = await findChallenge(deps.db, challengeOf(response));
  if (!challenge) throw new AssertionRefused('unknown challenge');
  if (challenge.consumedAt) throw new AssertionRefused('challenge already used');
  if (challenge.expiresAt.getTime() <= at.getTime()) throw new AssertionRefused('challenge expired');
  if (!accept(challenge)) throw new AssertionRefused('challenge made for something else');
  const passkey = await findPasskeyByCredentialId(deps.db, String(response.id));
  if (!passkey) throw new AssertionRefused('unknown credential');
  if (challenge.userId !== null && passkey.userId !== challenge.userId) {
    throw new AssertionRefused('credential of another account');
  }
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: deps.party.origin,
      expectedRPID: deps.party.id,
      requireUserVerification: true,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(passkey.publicKey),
        counter: passkey.signCount,
        transports: passkey.transports,
      },
    });
  } catch (error) {
    throw new AssertionRefused(error instanceof Error ? error.message : 'not verified');
  }
  if (!verification.verified) throw new AssertionRefused('signature not verified');
  const { newCounter } = verification.authenticationInfo;
  const accepted = await deps.db.transaction(async (tx) => {
    if (!(await consumeChallenge(tx, challenge.id, at))) return 'challenge already used';
    if (!(await recordPasskeyUse(tx, passkey.id, newCounter, at))) return 'signature counter went back';
    return null;
  });
  if (accepted !== null) throw new AssertionRefused(accepted);
  return { passkey, challenge };
}
