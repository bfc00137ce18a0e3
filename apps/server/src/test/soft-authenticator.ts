import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for tests: a P-256 key made with node:crypto, and registration and
 * assertion responses built byte by byte as the WebAuthn Level 3 specification lays them out
 * (§6.1 authenticator data, §6.5 attested credential data, §8.7 "none" attestation, §5.8.1 client data,
 * COSE_Key of RFC 9053 §7.1.1), with a CBOR writer of its own (RFC 8949), so @simplewebauthn verifies
 * real signatures made without its help.
 */

type Cbor = number | string | Uint8Array | Cbor[] | Map<number | string, Cbor>;

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  const head = Buffer.alloc(5);
  head[0] = (major << 5) | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

/** RFC 8949 deterministic-enough encoding of the few types a COSE key and an attestation object use. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([cborHead(4, value.length), ...value.map(cbor)]);
  const parts = [...value].flatMap(([key, item]) => [cbor(key), cbor(item)]);
  return Buffer.concat([cborHead(5, value.size), ...parts]);
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();
const b64url = (data: Buffer) => data.toString('base64url');

export interface SoftAuthenticatorOptions {
  /** Leave out user verification (a tap with no PIN or biometric). */
  userVerified?: boolean;
}

export interface RegistrationResponse {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  clientExtensionResults: Record<string, never>;
}

export interface AssertionResponse {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
  clientExtensionResults: Record<string, never>;
}

/** One discoverable credential: its id, key pair and signature counter. */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  /** The next assertion's counter is this plus one; tests set it back to make a cloned key. */
  signCount = 0;
  userHandle: string | null = null;

  constructor(private readonly options: SoftAuthenticatorOptions = {}) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: 'jwk' });
    this.publicJwk = { x: jwk.x!, y: jwk.y! };
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private flags(extra: number): number {
    return FLAG_UP | (this.options.userVerified === false ? 0 : FLAG_UV) | extra;
  }

  /** COSE_Key, EC2 on P-256 with ES256: kty 2, alg -7, crv 1, x, y. */
  private coseKey(): Buffer {
    return cbor(
      new Map<number, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(this.publicJwk.x, 'base64url')],
        [-3, Buffer.from(this.publicJwk.y, 'base64url')],
      ]),
    );
  }

  /** navigator.credentials.create() answering `options` (from the server), as made at `origin` for `rpId`. */
  register(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    at: { origin: string; rpId?: string },
  ): RegistrationResponse {
    const rpId = at.rpId ?? options.rp.id ?? new URL(at.origin).hostname;
    this.userHandle = options.user.id;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.signCount);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(FLAG_AT)]),
      counter,
      Buffer.alloc(16), // AAGUID: none
      idLength,
      this.credentialId,
      this.coseKey(),
    ]);
    const clientData = JSON.stringify({
      type: 'webauthn.create',
      challenge: options.challenge,
      origin: at.origin,
      crossOrigin: false,
    });
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(Buffer.from(clientData)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() answering `options`: authenticator data and an ES256 signature over it. */
  assert(
    options: { challenge: string; rpId?: string },
    at: { origin: string; rpId?: string },
  ): AssertionResponse {
    const rpId = at.rpId ?? options.rpId ?? new URL(at.origin).hostname;
    this.signCount += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.signCount);
    const authenticatorData = Buffer.concat([sha256(rpId), Buffer.from([this.flags(0)]), counter]);
    const clientData = Buffer.from(
      JSON.stringify({
        type: 'webauthn.get',
        challenge: options.challenge,
        origin: at.origin,
        crossOrigin: false,
      }),
    );
    const signer = createSign('sha256');
    signer.update(Buffer.concat([authenticatorData, sha256(clientData)]));
    const signature = signer.sign(this.privateKey); // DER, as WebAuthn §6.5.5 asks for ES256
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
    };
  }
}

/** The `X-Step-Up` header carrying an assertion. */
export function stepUpHeader(assertion: AssertionResponse): string {
  return Buffer.from(JSON.stringify(assertion), 'utf8').toString('base64url');
}
