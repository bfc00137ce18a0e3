import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { HDKey, HARDENED_OFFSET } from '@scure/bip32';
import { bech32 } from '@scure/base';
import type { BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import {
  BECH32_PREFIX,
  KNOWN_VERSIONS,
  MAINNET_BIP32,
  TESTNET_BIP32,
  base58check,
  keyNetworkOf,
} from '../rails/onchain/deposit-address';

/**
 * A customer's extended public key in the address book: each buy to it pays a fresh receive address
 * `m/0/i` below the key (the key is taken as the account key the wallet exported, whatever its depth).
 * The script type follows the key's SLIP-132 version bytes, as wallets export them:
 * - zpub / vpub: native segwit P2WPKH (BIP84): bc1q… / tb1q…;
 * - ypub / upub: P2WPKH nested in P2SH (BIP49): 3… / 2…;
 * - xpub / tpub: legacy P2PKH (BIP44): 1… / m… or n….
 * Multisig keys (Zpub, Ypub, Vpub, Upub) and every private key are refused; a private key is never
 * stored, logged or echoed in a message.
 */

export type PayoutScript = 'p2pkh' | 'p2sh-p2wpkh' | 'p2wpkh';

const SCRIPT_BY_VERSION_NAME: Record<string, PayoutScript> = {
  xpub: 'p2pkh',
  tpub: 'p2pkh',
  ypub: 'p2sh-p2wpkh',
  upub: 'p2sh-p2wpkh',
  zpub: 'p2wpkh',
  vpub: 'p2wpkh',
};

/** Base58 version bytes of P2PKH and P2SH addresses; regtest uses testnet's. */
const BASE58_VERSIONS = {
  mainnet: { p2pkh: 0x00, p2sh: 0x05 },
  testnet: { p2pkh: 0x6f, p2sh: 0xc4 },
} as const;

const EXTENDED_KEY_BYTES = 78;
const RECEIVE_CHAIN = 0;

/** A key the address book cannot use; the message is for the customer and never contains the key. */
export class PayoutKeyError extends Error {
  override name = 'PayoutKeyError';
  /** True when what was given is a private key (the answer warns the customer). */
  readonly isPrivateKey: boolean;
  constructor(message: string, isPrivateKey = false) {
    super(message);
    this.isPrivateKey = isPrivateKey;
  }
}

interface ParsedPayoutKey {
  receiveChain: HDKey;
  script: PayoutScript;
  versionName: string;
}

function expectedNames(network: BitcoinNetwork): string {
  return keyNetworkOf(network) === 'mainnet' ? 'an xpub, ypub or zpub' : 'a tpub, upub or vpub';
}

/** Checks the key's form, version and network; answers its receive chain (m/0) and script type. */
export function parsePayoutXpub(key: string, network: BitcoinNetwork): ParsedPayoutKey {
  const expected = expectedNames(network);
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(key);
  } catch {
    throw new PayoutKeyError(
      `This is not a valid extended public key (bad characters or checksum): give ${expected}.`,
    );
  }
  if (bytes.length !== EXTENDED_KEY_BYTES) {
    throw new PayoutKeyError(`This is not a valid extended public key (wrong length): give ${expected}.`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const known = KNOWN_VERSIONS.get(view.getUint32(0, false));
  // The key data starts with 0x00 for a private key, 0x02/0x03 for a compressed public key.
  if (known?.kind === 'private' || bytes[45] === 0) {
    throw new PayoutKeyError(
      `This is a PRIVATE key${known ? ` (${known.name})` : ''}: anyone who has it can take your coins. ` +
        `We did not keep it. Never share it; give your wallet's public key (${expected}) instead.`,
      true,
    );
  }
  if (!known) throw new PayoutKeyError(`This extended key has an unknown version: give ${expected}.`);
  if (known.network !== keyNetworkOf(network)) {
    throw new PayoutKeyError(
      `This is a ${known.network} key (${known.name}) but OffZero pays on ${network}: give ${expected}.`,
    );
  }
  const script = SCRIPT_BY_VERSION_NAME[known.name];
  if (!script) {
    throw new PayoutKeyError(
      `A ${known.name} is a multisig key; we can only pay single-signature wallets: give ${expected}.`,
    );
  }
  const versions = keyNetworkOf(network) === 'mainnet' ? MAINNET_BIP32 : TESTNET_BIP32;
  const converted = Uint8Array.from(bytes);
  new DataView(converted.buffer).setUint32(0, versions.public, false);
  let root: HDKey;
  try {
    root = HDKey.fromExtendedKey(base58check.encode(converted), versions);
  } catch {
    throw new PayoutKeyError(`This extended key does not hold a valid public key: give ${expected}.`);
  }
  return { receiveChain: root.deriveChild(RECEIVE_CHAIN), script, versionName: known.name };
}

/** Parsed receive chains by network and key, so a payout run does not parse the same key again. */
const receiveChains = new Map<string, ParsedPayoutKey>();
const MAX_CACHED_KEYS = 256;

function parsedKey(key: string, network: BitcoinNetwork): ParsedPayoutKey {
  const cacheKey = `${network}:${key}`;
  const cached = receiveChains.get(cacheKey);
  if (cached) return cached;
  const parsed = parsePayoutXpub(key, network);
  if (receiveChains.size >= MAX_CACHED_KEYS) receiveChains.clear();
  receiveChains.set(cacheKey, parsed);
  return parsed;
}

function hash160(bytes: Uint8Array): Uint8Array {
  return ripemd160(sha256(bytes));
}

function base58Address(version: number, hash: Uint8Array): string {
  return base58check.encode(Uint8Array.from([version, ...hash]));
}

/** The receive address `m/0/index` of the customer's key, in the script type of its version. */
export function derivePayoutAddress(key: string, index: number, network: BitcoinNetwork): string {
  if (!Number.isSafeInteger(index) || index < 0 || index >= HARDENED_OFFSET) {
    throw new RangeError(`A payout address index must be 0 to ${HARDENED_OFFSET - 1}, not ${String(index)}.`);
  }
  const { receiveChain, script } = parsedKey(key, network);
  const publicKey = receiveChain.deriveChild(index).publicKey;
  if (!publicKey) throw new PayoutKeyError('The derived payout key has no public key.');
  const keyHash = hash160(publicKey);
  const base58 = BASE58_VERSIONS[keyNetworkOf(network)];
  switch (script) {
    case 'p2wpkh':
      return bech32.encode(BECH32_PREFIX[network], [0, ...bech32.toWords(keyHash)]);
    case 'p2sh-p2wpkh':
      // The redeem script is the P2WPKH witness program: OP_0 <20-byte key hash>.
      return base58Address(base58.p2sh, hash160(Uint8Array.from([0x00, 0x14, ...keyHash])));
    case 'p2pkh':
      return base58Address(base58.p2pkh, keyHash);
  }
}
