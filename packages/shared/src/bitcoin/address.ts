import { schnorr } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { base58, bech32, bech32m } from '@scure/base';

export type BitcoinNetwork = 'mainnet' | 'testnet' | 'regtest';

/** The output types the product pays to. */
export type AddressKind = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr';

/** What is wrong with a refused address; each has its own message for the customer. */
export type AddressProblem =
  | 'empty'
  | 'spaces'
  | 'uri'
  | 'private-key'
  | 'not-an-address'
  | 'characters'
  | 'mixed-case'
  | 'length'
  | 'checksum'
  | 'kind'
  | 'taproot-key'
  | 'network';

export interface BitcoinAddress {
  network: BitcoinNetwork;
  kind: AddressKind;
  /** The output script (scriptPubKey) coins sent to the address are locked by. */
  outputScript: Uint8Array;
  /** Base58 'm…', 'n…', '2…' addresses: testnet and regtest share their version bytes. */
  sharedTestnetRegtest: boolean;
}

export type AddressReading =
  { ok: true; address: BitcoinAddress } | { ok: false; problem: AddressProblem; message: string };

/*
 * One reader for every address the product takes (web forms, API bodies, admin actions): base58check
 * (Bitcoin's legacy P2PKH and P2SH) and segwit (BIP173 bech32 for witness v0, BIP350 bech32m for v1+).
 * Decided here, on top of those standards:
 *
 * - Only the five output types the product pays to are valid: p2pkh, p2sh, p2wpkh, p2wsh, p2tr.
 *   BIP350 asks senders to accept future witness versions (v2 to v16, or v1 with a program that is not
 *   32 bytes), but no rule of today's network guards them: anyone could take coins sent there, so the
 *   customer would lose them. They are refused with a message saying so.
 * - A taproot (v1, 32-byte) program must be the x coordinate of a point on secp256k1 (BIP341 lifts it
 *   with BIP340's lift_x). About half of all 32-byte strings are not; coins sent to such an address can
 *   never be spent by anyone.
 * - An all-uppercase bech32 address is valid, as BIP173 says (QR codes use that form). Mixed case is not.
 * - Regtest legacy addresses use the same version bytes as testnet ones and cannot be told apart, so an
 *   'm…', 'n…' or '2…' address is valid for both testnet and regtest and reads as testnet. Bech32
 *   prefixes are distinct: 'bc' mainnet, 'tb' testnet (and signet, which shares it), 'bcrt' regtest.
 * - Nothing is trimmed: an address with spaces around it is refused, so what is checked is what is paid.
 */

const SEGWIT_PREFIX: Record<string, BitcoinNetwork> = { bc: 'mainnet', tb: 'testnet', bcrt: 'regtest' };
const BASE58_VERSION: ReadonlyMap<number, { network: BitcoinNetwork; kind: AddressKind }> = new Map([
  [0x00, { network: 'mainnet', kind: 'p2pkh' }],
  [0x05, { network: 'mainnet', kind: 'p2sh' }],
  [0x6f, { network: 'testnet', kind: 'p2pkh' }],
  [0xc4, { network: 'testnet', kind: 'p2sh' }],
]);
/** WIF private key versions (mainnet, testnet): a customer may paste one by mistake. */
const WIF_VERSIONS = new Set([0x80, 0xef]);
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_MAX_LENGTH = 90;
/** Any bech32 string (BIP173: human-readable part, '1', data with a 6-character checksum). */
const BECH32_SHAPE = /^[\x21-\x7e]{1,83}1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,}$/i;

const OP_0 = 0x00;
const OP_1 = 0x51;
const OP_DUP = 0x76;
const OP_HASH160 = 0xa9;
const OP_EQUAL = 0x87;
const OP_EQUALVERIFY = 0x88;
const OP_CHECKSIG = 0xac;

const PREFIXES: Record<BitcoinNetwork, string> = {
  mainnet: 'bc1q, bc1p, 1 or 3',
  testnet: 'tb1q, tb1p, m, n or 2',
  regtest: 'bcrt1q, bcrt1p, m, n or 2',
};
const COPY_AGAIN = 'Copy it again from your wallet.';

function refuse(problem: AddressProblem, message: string): AddressReading {
  return { ok: false, problem, message };
}

function accept(
  network: BitcoinNetwork,
  kind: AddressKind,
  outputScript: Uint8Array,
  sharedTestnetRegtest = false,
): AddressReading {
  return { ok: true, address: { network, kind, outputScript, sharedTestnetRegtest } };
}

function concat(...parts: Array<number | Uint8Array>): Uint8Array {
  const bytes: number[] = [];
  for (const part of parts) {
    if (typeof part === 'number') bytes.push(part);
    else bytes.push(...part);
  }
  return Uint8Array.from(bytes);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** Whether 32 bytes are a BIP340 x-only public key: an x below the field size with a point on the curve. */
export function isXOnlyPublicKey(program: Uint8Array): boolean {
  if (program.length !== 32) return false;
  try {
    schnorr.utils.lift_x(bytesToNumberBE(program));
    return true;
  } catch {
    return false;
  }
}

function readSegwit(text: string, network: BitcoinNetwork): AddressReading {
  const kindHint = `Use an address starting with ${PREFIXES[network]}.`;
  if (text.length > BECH32_MAX_LENGTH) {
    return refuse('length', `This address is too long to be a bitcoin address. ${COPY_AGAIN}`);
  }
  if (text !== text.toLowerCase() && text !== text.toUpperCase()) {
    return refuse(
      'mixed-case',
      `This address mixes capital and small letters, which a bc1, tb1 or bcrt1 address never does. ${COPY_AGAIN}`,
    );
  }
  const lower = text.toLowerCase();
  const separator = lower.lastIndexOf('1');
  const data = lower.slice(separator + 1);
  const stray = [...data].find((character) => !BECH32_CHARSET.includes(character));
  if (stray !== undefined) {
    return refuse(
      'characters',
      `This address contains "${stray}", which a bc1, tb1 or bcrt1 address never does. ${COPY_AGAIN}`,
    );
  }
  if (data.length < 8) {
    return refuse('length', `This address is too short to be a bitcoin address. ${COPY_AGAIN}`);
  }
  const asBech32 = bech32.decodeUnsafe(lower, BECH32_MAX_LENGTH);
  const asBech32m = asBech32 ? undefined : bech32m.decodeUnsafe(lower, BECH32_MAX_LENGTH);
  const decoded = asBech32 ?? asBech32m;
  if (!decoded) {
    return refuse('checksum', `This address has a typo: its checksum does not match. ${COPY_AGAIN}`);
  }
  const [version, ...programWords] = decoded.words;
  if (version === undefined || version > 16) {
    return refuse('not-an-address', `This is not a bitcoin address. ${kindHint}`);
  }
  // BIP350: witness v0 uses the bech32 checksum, every later version bech32m.
  if ((version === 0) !== (asBech32 !== undefined)) {
    return refuse(
      'checksum',
      `This address has a typo: its checksum is not the one its kind uses (BIP350). ${COPY_AGAIN}`,
    );
  }
  const program = bech32.fromWordsUnsafe(programWords);
  if (!program || program.length < 2 || program.length > 40) {
    return refuse('length', `This address has the wrong length for a bitcoin address. ${COPY_AGAIN}`);
  }
  if (version === 0) {
    if (program.length === 20) return accept(network, 'p2wpkh', concat(OP_0, 20, program));
    if (program.length === 32) return accept(network, 'p2wsh', concat(OP_0, 32, program));
    return refuse('length', `This address has the wrong length for a bitcoin address. ${COPY_AGAIN}`);
  }
  if (version === 1 && program.length === 32) {
    if (!isXOnlyPublicKey(program)) {
      return refuse(
        'taproot-key',
        `This taproot address does not hold a valid public key: no one could ever spend coins sent to it. ${COPY_AGAIN}`,
      );
    }
    return accept(network, 'p2tr', concat(OP_1, 32, program));
  }
  return refuse(
    'kind',
    `This is a segwit version ${String(version)} address with a ${String(program.length)}-byte program, which bitcoin does not use yet: coins sent there could be taken by anyone. ${kindHint}`,
  );
}

function readBase58(text: string): AddressReading {
  const looksLikeAddress = /^[13mn2]/.test(text) && text.length >= 25 && text.length <= 36;
  const stray = [...text].find((character) => !BASE58_ALPHABET.includes(character));
  if (stray !== undefined) {
    if (!looksLikeAddress) return refuse('not-an-address', 'This is not a bitcoin address.');
    return refuse(
      'characters',
      `This address contains "${stray}", which bitcoin addresses never do. ${COPY_AGAIN}`,
    );
  }
  // Longer text is never an address; decoding it would only cost time.
  if (text.length > 60) return refuse('not-an-address', 'This is not a bitcoin address.');
  const bytes = base58.decode(text);
  const payload = bytes.subarray(0, -4);
  const checksumOk =
    bytes.length > 4 && sameBytes(bytes.subarray(-4), sha256(sha256(payload)).subarray(0, 4));
  const version = payload[0];
  if (checksumOk && version !== undefined && WIF_VERSIONS.has(version) && [33, 34].includes(payload.length)) {
    return refuse(
      'private-key',
      'This is a private key, not an address: anyone who sees it can take your coins. Never share it, and paste your wallet’s receiving address instead.',
    );
  }
  if (payload.length !== 21) {
    if (!looksLikeAddress) return refuse('not-an-address', 'This is not a bitcoin address.');
    return refuse(
      checksumOk ? 'length' : 'checksum',
      checksumOk
        ? `This address has the wrong length for a bitcoin address. ${COPY_AGAIN}`
        : `This address has a typo: a character is wrong, missing or extra. ${COPY_AGAIN}`,
    );
  }
  if (!checksumOk) {
    if (!looksLikeAddress) return refuse('not-an-address', 'This is not a bitcoin address.');
    return refuse('checksum', `This address has a typo: its checksum does not match. ${COPY_AGAIN}`);
  }
  const known = version === undefined ? undefined : BASE58_VERSION.get(version);
  if (!known) {
    return refuse('not-an-address', 'This is not a bitcoin address (it may be one of another coin).');
  }
  const hash = payload.subarray(1);
  const outputScript =
    known.kind === 'p2pkh'
      ? concat(OP_DUP, OP_HASH160, 20, hash, OP_EQUALVERIFY, OP_CHECKSIG)
      : concat(OP_HASH160, 20, hash, OP_EQUAL);
  return accept(known.network, known.kind, outputScript, known.network === 'testnet');
}

function readAnyNetwork(text: unknown): AddressReading {
  // Form and JSON values can be anything at run time despite the type.
  if (typeof text !== 'string' || text.length === 0) return refuse('empty', 'Enter a bitcoin address.');
  if (text.trim().length === 0) return refuse('empty', 'Enter a bitcoin address.');
  if (text.trim() !== text) {
    return refuse('spaces', 'Remove the spaces around the address: a bitcoin address has none.');
  }
  if (/^bitcoin:/i.test(text)) {
    return refuse('uri', 'Paste only the address, without "bitcoin:" and anything after a "?".');
  }
  if (/\s/.test(text)) {
    const withoutSpaces = readAnyNetwork(text.replace(/\s/g, ''));
    if (!withoutSpaces.ok) return refuse('not-an-address', 'This is not a bitcoin address.');
    return refuse('spaces', `A bitcoin address has no spaces. ${COPY_AGAIN}`);
  }
  const separator = text.toLowerCase().lastIndexOf('1');
  const prefix = separator > 0 ? text.slice(0, separator).toLowerCase() : '';
  const segwitNetwork = SEGWIT_PREFIX[prefix];
  if (segwitNetwork) return readSegwit(text, segwitNetwork);
  if (BECH32_SHAPE.test(text) && !/^[13mn2]/.test(text)) {
    return refuse('not-an-address', 'This is not a bitcoin address (it may be one of another coin).');
  }
  return readBase58(text);
}

/**
 * Reads an address the customer gave; with `network`, also refuses an address of another network.
 * A refusal says what is wrong in words the customer can act on.
 */
export function readBitcoinAddress(text: string, network?: BitcoinNetwork): AddressReading {
  const reading = readAnyNetwork(text);
  if (!reading.ok || network === undefined) return reading;
  const found = reading.address;
  if (found.network === network) return reading;
  if (network === 'regtest' && found.sharedTestnetRegtest) {
    return { ok: true, address: { ...found, network: 'regtest' } };
  }
  return refuse('network', `This is a ${found.network} address. Use a ${network} address.`);
}

/** Why an address cannot be paid to on `network`, or null when it can. */
export function bitcoinAddressProblem(text: string, network?: BitcoinNetwork): string | null {
  const reading = readBitcoinAddress(text, network);
  return reading.ok ? null : reading.message;
}

/** The network an address belongs to, or null when it is not a valid payable address. */
export function bitcoinAddressNetwork(address: string): BitcoinNetwork | null {
  const reading = readAnyNetwork(address);
  return reading.ok ? reading.address.network : null;
}

/**
 * Whether coins can be sent to this address; with `network`, also whether it belongs to that network
 * (a 'tb1…' address is not valid for mainnet).
 */
export function isValidBitcoinAddress(address: string, network?: BitcoinNetwork): boolean {
  return readBitcoinAddress(address, network).ok;
}

/** What an address of the network starts like, as a field's placeholder (never a real address). */
export const ADDRESS_PLACEHOLDER: Record<BitcoinNetwork, string> = {
  mainnet: 'bc1q…',
  testnet: 'tb1q…',
  regtest: 'bcrt1q…',
};
