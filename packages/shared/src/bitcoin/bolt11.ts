import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bech32, hex, utf8 } from '@scure/base';
import type { BitcoinNetwork } from './address';

/**
 * BOLT #11 payment requests (Lightning invoices): reading with signature check, and writing with a
 * node key (docs/design.md, "Lightning"). Amounts are kept in millisatoshis as the format counts them.
 */

export interface Bolt11Invoice {
  /** The invoice as read (lower case). */
  invoice: string;
  network: BitcoinNetwork;
  /** The amount asked for, in millisatoshis; null for an invoice that names none. */
  amountMsat: bigint | null;
  /** Seconds since 1970 when it was made. */
  timestamp: number;
  /** Seconds after `timestamp` it stops being payable (3600 when the invoice does not say). */
  expirySeconds: number;
  paymentHash: string;
  paymentSecret: string | null;
  description: string | null;
  descriptionHash: string | null;
  /** The payee node's public key (hex, compressed): from its `n` field or recovered from the signature. */
  payee: string;
  minFinalCltvExpiry: number;
}

export class Bolt11Error extends Error {}

const NETWORK_PREFIX: Record<BitcoinNetwork, string> = { mainnet: 'bc', testnet: 'tb', regtest: 'bcrt' };
/** Longest prefixes first, so `bcrt` is not read as `bc` + amount. */
const PREFIX_NETWORK: [string, BitcoinNetwork][] = [
  ['bcrt', 'regtest'],
  ['tbs', 'testnet'],
  ['tb', 'testnet'],
  ['bc', 'mainnet'],
];
/** Millisatoshis per unit of each amount multiplier (1 BTC = 10^11 msat); `p` is a tenth of one. */
const MULTIPLIER_MSAT: Record<string, bigint> = { m: 100_000_000n, u: 100_000n, n: 100n };

const TAG = { p: 1, s: 16, d: 13, h: 23, n: 19, x: 6, c: 24, features: 5 } as const;
const DEFAULT_EXPIRY = 3600;
const DEFAULT_MIN_FINAL_CLTV = 18;
const SIGNATURE_WORDS = 104;
/**
 * Feature bits a payer may be asked to require (BOLT #9, context "9"): var_onion_optin, payment_secret,
 * basic_mpp, payment_metadata. A required (even) bit outside these makes the invoice unpayable.
 */
const KNOWN_FEATURES = new Set([8, 9, 14, 15, 16, 17, 48, 49]);

function wordsToInt(words: readonly number[]): number {
  return words.reduce((value, word) => value * 32 + word, 0);
}

function intToWords(value: number, length?: number): number[] {
  const words: number[] = [];
  let rest = value;
  do {
    words.unshift(rest % 32);
    rest = Math.floor(rest / 32);
  } while (rest > 0);
  while (length !== undefined && words.length < length) words.unshift(0);
  return words;
}

function signingMessage(hrp: string, dataWords: readonly number[]): Uint8Array {
  const hrpBytes = utf8.decode(hrp);
  const data = signedBytes(dataWords);
  const message = new Uint8Array(hrpBytes.length + data.length);
  message.set(hrpBytes);
  message.set(data, hrpBytes.length);
  return message;
}

/** The data part as bytes: every 5-bit word in order, then zero bits to the next byte. */
function signedBytes(words: readonly number[]): Uint8Array {
  const out = new Uint8Array(Math.ceil((words.length * 5) / 8));
  let bitIndex = 0;
  for (const word of words) {
    for (let bit = 4; bit >= 0; bit--) {
      if ((word >> bit) & 1) out[bitIndex >> 3]! |= 0x80 >> (bitIndex & 7);
      bitIndex++;
    }
  }
  return out;
}

function parseAmount(text: string): bigint | null {
  if (text === '') return null;
  const match = /^([0-9]+)([munp]?)$/.exec(text);
  if (!match) throw new Bolt11Error('The invoice amount is not readable.');
  const [, digits, multiplier] = match as unknown as [string, string, string];
  if (digits.length > 1 && digits.startsWith('0'))
    throw new Bolt11Error('The invoice amount is not readable.');
  const value = BigInt(digits);
  if (multiplier === '') return value * 100_000_000_000n;
  if (multiplier === 'p') {
    if (value % 10n !== 0n) throw new Bolt11Error('The invoice amount is finer than a millisatoshi.');
    return value / 10n;
  }
  return value * MULTIPLIER_MSAT[multiplier]!;
}

function formatAmount(msat: bigint): string {
  if (msat % 100_000_000n === 0n) return `${msat / 100_000_000n}m`;
  if (msat % 100_000n === 0n) return `${msat / 100_000n}u`;
  if (msat % 100n === 0n) return `${msat / 100n}n`;
  return `${msat * 10n}p`;
}

function splitPrefix(hrp: string): { network: BitcoinNetwork; amountText: string } {
  if (!hrp.startsWith('ln')) throw new Bolt11Error('This is not a Lightning invoice.');
  const rest = hrp.slice(2);
  for (const [prefix, network] of PREFIX_NETWORK) {
    if (rest.startsWith(prefix)) return { network, amountText: rest.slice(prefix.length) };
  }
  throw new Bolt11Error('The invoice is for a network we do not know.');
}

interface TaggedFields {
  paymentHash?: string;
  paymentSecret?: string;
  description?: string;
  descriptionHash?: string;
  payee?: string;
  expirySeconds?: number;
  minFinalCltvExpiry?: number;
}

/** Reads one tagged field into `fields`; fields of a wrong length are skipped as BOLT #11 says. */
function readField(fields: TaggedFields, type: number, words: number[]): void {
  const bytes = () => bech32.fromWordsUnsafe(words);
  if (type === TAG.p && words.length === 52 && fields.paymentHash === undefined) {
    fields.paymentHash = hex.encode(bytes() as Uint8Array);
  } else if (type === TAG.s && words.length === 52 && fields.paymentSecret === undefined) {
    fields.paymentSecret = hex.encode(bytes() as Uint8Array);
  } else if (type === TAG.h && words.length === 52 && fields.descriptionHash === undefined) {
    fields.descriptionHash = hex.encode(bytes() as Uint8Array);
  } else if (type === TAG.n && words.length === 53 && fields.payee === undefined) {
    const key = bech32.fromWordsUnsafe(words);
    if (key) fields.payee = hex.encode(key);
  } else if (type === TAG.d && fields.description === undefined) {
    const raw = bech32.fromWordsUnsafe(words);
    if (!raw) throw new Bolt11Error('The invoice description is not readable.');
    fields.description = utf8.encode(raw);
  } else if (type === TAG.x) {
    fields.expirySeconds = wordsToInt(words);
  } else if (type === TAG.c) {
    fields.minFinalCltvExpiry = wordsToInt(words);
  } else if (type === TAG.features) {
    checkFeatures(words);
  }
}

function checkFeatures(words: readonly number[]): void {
  for (let index = 0; index < words.length; index++) {
    for (let bit = 0; bit < 5; bit++) {
      if (((words[words.length - 1 - index]! >> bit) & 1) === 0) continue;
      const feature = index * 5 + bit;
      if (feature % 2 === 0 && !KNOWN_FEATURES.has(feature)) {
        throw new Bolt11Error(`The invoice requires a feature we do not support (${feature}).`);
      }
    }
  }
}

/** Reads and checks a BOLT #11 invoice: checksum, amount, fields and the payee's signature. */
export function decodeBolt11(text: string): Bolt11Invoice {
  const trimmed = text.trim().replace(/^lightning:/i, '');
  if (trimmed !== trimmed.toLowerCase() && trimmed !== trimmed.toUpperCase()) {
    throw new Bolt11Error('The invoice mixes upper and lower case.');
  }
  const invoice = trimmed.toLowerCase();
  let decoded: { prefix: string; words: number[] };
  try {
    decoded = bech32.decode(invoice as `${string}1${string}`, false);
  } catch {
    throw new Bolt11Error('This is not a readable Lightning invoice.');
  }
  const { prefix: hrp, words } = decoded;
  const { network, amountText } = splitPrefix(hrp);
  const amountMsat = parseAmount(amountText);
  if (words.length < 7 + SIGNATURE_WORDS) throw new Bolt11Error('The invoice is too short.');
  const dataWords = words.slice(0, words.length - SIGNATURE_WORDS);
  const signatureBytes = bech32.fromWords(words.slice(words.length - SIGNATURE_WORDS));
  const fields: TaggedFields = {};
  let position = 7;
  while (position < dataWords.length) {
    if (position + 3 > dataWords.length) throw new Bolt11Error('The invoice is cut short.');
    const type = dataWords[position]!;
    const length = wordsToInt(dataWords.slice(position + 1, position + 3));
    const fieldWords = dataWords.slice(position + 3, position + 3 + length);
    if (fieldWords.length !== length) throw new Bolt11Error('The invoice is cut short.');
    readField(fields, type, fieldWords);
    position += 3 + length;
  }
  if (fields.paymentHash === undefined) throw new Bolt11Error('The invoice has no payment hash.');
  if (fields.description === undefined && fields.descriptionHash === undefined) {
    throw new Bolt11Error('The invoice has no description.');
  }
  const payee = checkSignature(hrp, dataWords, signatureBytes, fields.payee);
  return {
    invoice,
    network,
    amountMsat,
    timestamp: wordsToInt(dataWords.slice(0, 7)),
    expirySeconds: fields.expirySeconds ?? DEFAULT_EXPIRY,
    paymentHash: fields.paymentHash,
    paymentSecret: fields.paymentSecret ?? null,
    description: fields.description ?? null,
    descriptionHash: fields.descriptionHash ?? null,
    payee,
    minFinalCltvExpiry: fields.minFinalCltvExpiry ?? DEFAULT_MIN_FINAL_CLTV,
  };
}

function checkSignature(hrp: string, dataWords: number[], signature: Uint8Array, stated?: string): string {
  const message = signingMessage(hrp, dataWords);
  const recoveryId = signature[64]!;
  if (recoveryId > 3) throw new Bolt11Error('The invoice signature is not valid.');
  const compact = signature.subarray(0, 64);
  if (stated !== undefined) {
    if (!secp256k1.verify(compact, message, hex.decode(stated), { lowS: true })) {
      throw new Bolt11Error('The invoice signature is not valid.');
    }
    return stated;
  }
  const recovered = new Uint8Array(65);
  recovered[0] = recoveryId;
  recovered.set(compact, 1);
  try {
    const publicKey = secp256k1.recoverPublicKey(recovered, message);
    if (!secp256k1.verify(compact, message, publicKey, { lowS: true })) throw new Error('high s');
    return hex.encode(publicKey);
  } catch {
    throw new Bolt11Error('The invoice signature is not valid.');
  }
}

export interface Bolt11Draft {
  network: BitcoinNetwork;
  amountMsat: bigint | null;
  timestamp: number;
  expirySeconds: number;
  paymentHash: string;
  paymentSecret: string;
  description?: string;
  descriptionHash?: string;
  minFinalCltvExpiry?: number;
}

function field(type: number, words: number[]): number[] {
  return [type, ...intToWords(words.length, 2), ...words];
}

/** Writes and signs a BOLT #11 invoice with the node's private key (32 bytes). */
export function encodeBolt11(draft: Bolt11Draft, privateKey: Uint8Array): string {
  const hrp = `ln${NETWORK_PREFIX[draft.network]}${draft.amountMsat === null ? '' : formatAmount(draft.amountMsat)}`;
  const words: number[] = intToWords(draft.timestamp, 7);
  words.push(...field(TAG.p, bech32.toWords(hex.decode(draft.paymentHash))));
  if (draft.description !== undefined)
    words.push(...field(TAG.d, bech32.toWords(utf8.decode(draft.description))));
  if (draft.descriptionHash !== undefined)
    words.push(...field(TAG.h, bech32.toWords(hex.decode(draft.descriptionHash))));
  words.push(...field(TAG.s, bech32.toWords(hex.decode(draft.paymentSecret))));
  if (draft.expirySeconds !== DEFAULT_EXPIRY) words.push(...field(TAG.x, intToWords(draft.expirySeconds)));
  words.push(...field(TAG.c, intToWords(draft.minFinalCltvExpiry ?? 144)));
  // Features: var_onion_optin (8) and payment_secret (14) required, basic_mpp (17) optional.
  words.push(...field(TAG.features, [0b00100, 0b10000, 0b01000, 0b00000]));
  const recovered = secp256k1.sign(signingMessage(hrp, words), privateKey, {
    format: 'recovered',
    lowS: true,
  });
  const signature = new Uint8Array(65);
  signature.set(recovered.subarray(1), 0);
  signature[64] = recovered[0]!;
  return bech32.encode(hrp, [...words, ...bech32.toWords(signature)], false);
}

/** When the invoice stops being payable (seconds since 1970). */
export function bolt11ExpiresAt(invoice: Bolt11Invoice): number {
  return invoice.timestamp + invoice.expirySeconds;
}

/** The node public key of a private key (hex, compressed). */
export function nodePublicKey(privateKey: Uint8Array): string {
  return hex.encode(secp256k1.getPublicKey(privateKey, true));
}
