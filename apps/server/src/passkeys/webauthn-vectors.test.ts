import { readFileSync } from 'node:fs';
import { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../test/test-app';
import { cbor } from '../test/soft-authenticator';
import { insertChallenge, insertPasskey, findPasskeyByCredentialId } from './passkey.repository';
import { verifyLogin } from './passkey-login';
import { verifyRegistration } from './passkey-registration';

/**
 * The W3C WebAuthn Level 3 test vector for an ES256 credential with "none" attestation
 * (`vectors/webauthn-l3-none-es256.json`, source inside): the software authenticator's CBOR writes
 * the specification's bytes exactly, @simplewebauthn verifies the recorded registration and signature
 * with the key as the database stores it, and this product's ceremonies refuse them for the one thing
 * the vector lacks and OffZero requires, user verification.
 */

interface Vector {
  rpId: string;
  origin: string;
  registration: Record<'challenge' | 'credentialId' | 'clientDataJSON' | 'attestationObject', string>;
  authentication: Record<'challenge' | 'authenticatorData' | 'clientDataJSON' | 'signature', string>;
}
const vector = JSON.parse(
  readFileSync(new URL('./vectors/webauthn-l3-none-es256.json', import.meta.url), 'utf8'),
) as Vector;
const b64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64url');
const credentialId = b64(vector.registration.credentialId);

const registrationResponse = {
  id: credentialId,
  rawId: credentialId,
  type: 'public-key' as const,
  response: {
    clientDataJSON: b64(vector.registration.clientDataJSON),
    attestationObject: b64(vector.registration.attestationObject),
  },
  clientExtensionResults: {},
};
const assertionResponse = {
  id: credentialId,
  rawId: credentialId,
  type: 'public-key' as const,
  response: {
    clientDataJSON: b64(vector.authentication.clientDataJSON),
    authenticatorData: b64(vector.authentication.authenticatorData),
    signature: b64(vector.authentication.signature),
  },
  clientExtensionResults: {},
};
const party = { id: vector.rpId, name: 'OffZero', origin: vector.origin };
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('the W3C none/ES256 test vector', () => {
  const database = useTestDatabase(['vector@example.org']);

  it("is written byte for byte by the test authenticator's CBOR", () => {
    const attestation = Buffer.from(vector.registration.attestationObject, 'hex');
    // authData: the byte string after the text key "authData" (0x58 0xa4: 164 bytes).
    const start = attestation.indexOf(Buffer.from('68617574684461746158a4', 'hex')) + 11;
    const authData = attestation.subarray(start, start + 0xa4);
    const rewritten = cbor(
      new Map<string, Parameters<typeof cbor>[0]>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    expect(rewritten.toString('hex')).toBe(vector.registration.attestationObject);
    const coseKey = authData.subarray(authData.length - 77);
    const [x, y] = [coseKey.subarray(10, 42), coseKey.subarray(45, 77)];
    const written = cbor(
      new Map<number, Parameters<typeof cbor>[0]>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, x],
        [-3, y],
      ]),
    );
    expect(written.toString('hex')).toBe(coseKey.toString('hex'));
  });

  it('verifies as recorded, with the public key read back from the passkeys table', async () => {
    const registered = await verifyRegistrationResponse({
      response: registrationResponse,
      expectedChallenge: b64(vector.registration.challenge),
      expectedOrigin: vector.origin,
      expectedRPID: vector.rpId,
      requireUserVerification: false,
    });
    expect(registered.verified).toBe(true);
    const { credential } = registered.registrationInfo!;
    expect(credential.id).toBe(credentialId);
    await insertPasskey(database.db, {
      userId: database.userIds[0]!,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey),
      signCount: credential.counter,
      name: 'W3C vector',
    });
    const row = (await findPasskeyByCredentialId(database.db, credentialId))!;
    const asserted = await verifyAuthenticationResponse({
      response: assertionResponse,
      expectedChallenge: b64(vector.authentication.challenge),
      expectedOrigin: vector.origin,
      expectedRPID: vector.rpId,
      requireUserVerification: false,
      credential: { id: row.credentialId, publicKey: new Uint8Array(row.publicKey), counter: row.signCount },
    });
    expect(asserted.verified).toBe(true);
    expect(asserted.authenticationInfo.newCounter).toBe(0);

    const tampered = Buffer.from(vector.authentication.signature, 'hex');
    tampered.writeUInt8(tampered.readUInt8(tampered.length - 1) ^ 1, tampered.length - 1);
    await expect(
      verifyAuthenticationResponse({
        response: {
          ...assertionResponse,
          response: { ...assertionResponse.response, signature: tampered.toString('base64url') },
        },
        expectedChallenge: b64(vector.authentication.challenge),
        expectedOrigin: vector.origin,
        expectedRPID: vector.rpId,
        requireUserVerification: false,
        credential: { id: row.credentialId, publicKey: new Uint8Array(row.publicKey), counter: 0 },
      }),
    ).resolves.toMatchObject({ verified: false });
  });

  it('is refused by the sign-in and registration ceremonies: no user verification', async () => {
    const reasons: string[] = [];
    const deps = {
      db: database.db,
      party,
      now: () => new Date(),
      log: { ...quiet, warn: (entry: object) => void reasons.push((entry as { reason: string }).reason) },
      findUser: async () => null,
      findUserByEmail: async () => null,
    };
    await insertChallenge(database.db, {
      challenge: b64(vector.authentication.challenge),
      purpose: 'login',
      expiresAt: new Date(Date.now() + 60_000),
    });
    await expect(verifyLogin(deps, assertionResponse)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });

    const user = { id: database.userIds[0]!, email: 'vector@example.org' } as Parameters<
      typeof verifyRegistration
    >[1];
    await insertChallenge(database.db, {
      challenge: b64(vector.registration.challenge),
      purpose: 'registration',
      userId: user.id,
      expiresAt: new Date(Date.now() + 60_000),
    });
    await expect(verifyRegistration(deps, user, registrationResponse)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    // Both for the same reason, in @simplewebauthn's words: the user was not verified.
    expect(reasons).toHaveLength(2);
    for (const reason of reasons) expect(reason).toMatch(/user.*verif/i);
  });
});
