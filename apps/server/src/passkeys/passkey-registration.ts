import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { UserRow } from '../db/schema';
import { isUniqueViolation } from '../db/postgres-errors';
import { AppError } from '../http/errors';
import { isUuid } from '../http/ids';
import {
  consumeChallenge,
  deletePasskey,
  findChallenge,
  findOwnPasskey,
  insertPasskey,
  listPasskeys,
  renamePasskey,
  type PasskeyRow,
} from './passkey.repository';
import { writePasskeyNotice } from './passkey-notices';
import { challengeBytes, challengeOf, openChallenge, type CeremonyDeps } from './webauthn-ceremonies';

export const PASSKEY_NOT_FOUND = 'We found no such passkey on your account.';
const NOT_REGISTERED = 'This passkey could not be registered. Start again from Settings.';

/** What the user's browser needs to make a passkey: RP id, user handle, a challenge, the passkeys to skip. */
export async function registrationOptions(
  deps: CeremonyDeps,
  user: UserRow,
  name: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const challenge = await openChallenge(deps, {
    purpose: 'registration',
    userId: user.id,
    passkeyName: name,
  });
  const own = await listPasskeys(deps.db, user.id);
  return generateRegistrationOptions({
    rpName: deps.party.name,
    rpID: deps.party.id,
    userName: user.email,
    userDisplayName: [user.firstName, user.lastName].join(' ').trim() || user.email,
    // The user handle is the account id: a passkey login names its account by it.
    userID: new TextEncoder().encode(user.id),
    // As bytes: a string challenge would be read as text and encoded again.
    challenge: challengeBytes(challenge),
    timeout: 120_000,
    attestationType: 'none',
    excludeCredentials: own.map((passkey) => ({ id: passkey.credentialId, transports: passkey.transports })),
    // Discoverable (so it signs in with no e-mail typed) and verified (a PIN or biometric, not a tap).
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
}

/**
 * Checks the browser's registration response against the user's live registration challenge, the
 * origin and RP id of PUBLIC_URL and user verification, then stores the credential.
 */
export async function verifyRegistration(
  deps: CeremonyDeps & { log: { warn(obj: object, msg: string): void } },
  user: UserRow,
  response: RegistrationResponseJSON,
): Promise<PasskeyRow> {
  const refuse = (reason: string): never => {
    deps.log.warn({ reason }, 'passkey registration refused');
    throw new AppError('BAD_REQUEST', NOT_REGISTERED);
  };
  let challengeText = '';
  try {
    challengeText = challengeOf(response);
  } catch {
    refuse('no readable client data');
  }
  const at = deps.now();
  const challenge = await findChallenge(deps.db, challengeText);
  if (
    !challenge ||
    challenge.purpose !== 'registration' ||
    challenge.userId !== user.id ||
    challenge.consumedAt ||
    challenge.expiresAt.getTime() <= at.getTime()
  ) {
    return refuse('no live registration challenge of this user');
  }
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: deps.party.origin,
      expectedRPID: deps.party.id,
      requireUserVerification: true,
    });
  } catch (error) {
    return refuse(error instanceof Error ? error.message : 'not verified');
  }
  if (!verification.verified) return refuse('not verified');
  const { credential, credentialBackedUp } = verification.registrationInfo;
  try {
    return await deps.db.transaction(async (tx) => {
      if (!(await consumeChallenge(tx, challenge.id, at))) refuse('challenge already used');
      const passkey = await insertPasskey(tx, {
        userId: user.id,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey),
        signCount: credential.counter,
        transports: credential.transports ?? [],
        name: challenge.passkeyName ?? 'Passkey',
        backedUp: credentialBackedUp,
      });
      await writePasskeyNotice(tx, user, `${passkey.id}:added`, {
        subject: 'A passkey was added to your OffZero account',
        text:
          `The passkey "${passkey.name}" was added to your OffZero account. It can now sign you in and ` +
          'confirm changes to where your money goes. If this was not you, contact support at once.',
      });
      return passkey;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', 'This passkey is already registered.');
    throw error;
  }
}

export async function findOwn(deps: CeremonyDeps, userId: string, id: string): Promise<PasskeyRow> {
  const row = isUuid(id) ? await findOwnPasskey(deps.db, userId, id) : null;
  if (!row) throw new AppError('NOT_FOUND', PASSKEY_NOT_FOUND);
  return row;
}

export async function rename(deps: CeremonyDeps, userId: string, id: string, name: string) {
  await findOwn(deps, userId, id);
  const row = await renamePasskey(deps.db, userId, id, name);
  if (!row) throw new AppError('NOT_FOUND', PASSKEY_NOT_FOUND);
  return row;
}

/** Removes one of the user's passkeys (the route has checked the step-up) and e-mails them. */
export async function remove(deps: CeremonyDeps, user: UserRow, id: string): Promise<PasskeyRow> {
  await findOwn(deps, user.id, id);
  return deps.db.transaction(async (tx) => {
    const row = await deletePasskey(tx, user.id, id);
    if (!row) throw new AppError('NOT_FOUND', PASSKEY_NOT_FOUND);
    await writePasskeyNotice(tx, user, `${row.id}:removed`, {
      subject: 'A passkey was removed from your OffZero account',
      text: `The passkey "${row.name}" was removed from your OffZero account. If this was not you, contact support at once.`,
    });
    return row;
  });
}
