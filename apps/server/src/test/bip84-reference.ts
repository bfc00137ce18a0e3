import { createHash, createHmac, pbkdf2Sync } from 'node:crypto';

/**
 * A second, deliberately plain BIP39/BIP32/BIP84 derivation for the deposit-address tests, sharing no
 * code with the libraries the server uses (@scure/bip32, @noble/*): node:crypto for the hashes, BigInt
 * arithmetic for the curve, a few lines of base58. It goes the private way (CKDpriv), the server the
 * public way (CKDpub), so agreement between the two means something. Slow and not constant-time: never
 * for real keys.
 */

// secp256k1 (SEC 2, section 2.4.1).
const P = 2n ** 256n - 2n ** 32n - 977n;
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const G: Point = {
  x: 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
  y: 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n,
};

interface Point {
  x: bigint;
  y: bigint;
}

const mod = (a: bigint, m = P) => ((a % m) + m) % m;

function inverse(a: bigint): bigint {
  // Extended Euclid: a * x ≡ 1 (mod P).
  let [r0, r1] = [mod(a), P];
  let [x0, x1] = [1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [x0, x1] = [x1, x0 - q * x1];
  }
  return mod(x0);
}

function add(a: Point | null, b: Point | null): Point | null {
  if (!a) return b;
  if (!b) return a;
  if (a.x === b.x && mod(a.y + b.y) === 0n) return null;
  const slope = a.x === b.x ? mod(3n * a.x * a.x * inverse(2n * a.y)) : mod((b.y - a.y) * inverse(b.x - a.x));
  const x = mod(slope * slope - a.x - b.x);
  return { x, y: mod(slope * (a.x - x) - a.y) };
}

function multiply(scalar: bigint): Point {
  let result: Point | null = null;
  let addend: Point | null = G;
  for (let k = scalar; k > 0n; k >>= 1n) {
    if (k & 1n) result = add(result, addend);
    addend = add(addend, addend);
  }
  if (!result) throw new Error('the scalar is a multiple of the group order');
  return result;
}

const toBytes = (value: bigint, length: number) =>
  Buffer.from(value.toString(16).padStart(length * 2, '0'), 'hex');
const toBigInt = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
const uint32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};

/** SEC1 compressed public key of a private key (33 bytes). */
export function compressedPublicKey(privateKey: bigint): Buffer {
  const { x, y } = multiply(privateKey);
  return Buffer.concat([Buffer.from([y & 1n ? 0x03 : 0x02]), toBytes(x, 32)]);
}

export const hash160 = (bytes: Uint8Array) =>
  createHash('ripemd160').update(createHash('sha256').update(bytes).digest()).digest();

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58check(payload: Uint8Array): string {
  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();
  const bytes = Buffer.concat([payload, sha256(sha256(payload)).subarray(0, 4)]);
  let text = '';
  for (let value = toBigInt(bytes); value > 0n; value /= 58n) text = BASE58[Number(value % 58n)]! + text;
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

export interface ReferenceNode {
  privateKey: bigint;
  chainCode: Buffer;
  depth: number;
  parentFingerprint: Buffer;
  childNumber: number;
  publicKey: Buffer;
}

/** BIP39 seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic") and BIP32 master node. */
export function masterNode(mnemonic: string): ReferenceNode {
  const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
  const digest = createHmac('sha512', 'Bitcoin seed').update(seed).digest();
  const privateKey = toBigInt(digest.subarray(0, 32));
  return {
    privateKey,
    chainCode: digest.subarray(32),
    depth: 0,
    parentFingerprint: Buffer.alloc(4),
    childNumber: 0,
    publicKey: compressedPublicKey(privateKey),
  };
}

const HARDENED = 0x80000000;

/** BIP32 CKDpriv along a path such as "m/84'/0'/0'/0/1". */
export function derive(root: ReferenceNode, pathText: string): ReferenceNode {
  const [first, ...steps] = pathText.split('/');
  if (first !== 'm') throw new Error(`a path starts with m: ${pathText}`);
  let node = root;
  for (const step of steps) {
    const index = step.endsWith("'") ? Number(step.slice(0, -1)) + HARDENED : Number(step);
    const data =
      index >= HARDENED
        ? Buffer.concat([Buffer.alloc(1), toBytes(node.privateKey, 32), uint32(index)])
        : Buffer.concat([node.publicKey, uint32(index)]);
    const digest = createHmac('sha512', node.chainCode).update(data).digest();
    const privateKey = mod(toBigInt(digest.subarray(0, 32)) + node.privateKey, N);
    node = {
      privateKey,
      chainCode: digest.subarray(32),
      depth: node.depth + 1,
      parentFingerprint: hash160(node.publicKey).subarray(0, 4),
      childNumber: index,
      publicKey: compressedPublicKey(privateKey),
    };
  }
  return node;
}

/** The node serialized as an extended key (BIP32) under a version (SLIP-132: zpub, vpub, zprv…). */
export function extendedKey(node: ReferenceNode, version: number, kind: 'public' | 'private'): string {
  const key =
    kind === 'public' ? node.publicKey : Buffer.concat([Buffer.alloc(1), toBytes(node.privateKey, 32)]);
  return base58check(
    Buffer.concat([
      uint32(version),
      Buffer.from([node.depth]),
      node.parentFingerprint,
      uint32(node.childNumber),
      node.chainCode,
      key,
    ]),
  );
}

/** Wallet import format of a mainnet private key with a compressed public key. */
export const wif = (node: ReferenceNode) =>
  base58check(Buffer.concat([Buffer.from([0x80]), toBytes(node.privateKey, 32), Buffer.from([0x01])]));

// BIP173 bech32, as its reference code writes it.
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values: number[]): number {
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    GENERATOR.forEach((generator, i) => {
      if ((top >>> i) & 1) checksum ^= generator;
    });
  }
  return checksum;
}

/** The P2WPKH (witness version 0) address of a public key: bc1… / tb1… / bcrt1…. */
export function p2wpkhAddress(publicKey: Uint8Array, prefix: 'bc' | 'tb' | 'bcrt'): string {
  const words = [0];
  let accumulator = 0;
  let bits = 0;
  for (const byte of hash160(publicKey)) {
    accumulator = (accumulator << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((accumulator >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((accumulator << (5 - bits)) & 31);
  const expandedPrefix = [...prefix].map((c) => c.charCodeAt(0) >> 5);
  expandedPrefix.push(0, ...[...prefix].map((c) => c.charCodeAt(0) & 31));
  const check = polymod([...expandedPrefix, ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (check >>> (5 * (5 - i))) & 31);
  return `${prefix}1${[...words, ...checksum].map((word) => CHARSET[word]).join('')}`;
}
