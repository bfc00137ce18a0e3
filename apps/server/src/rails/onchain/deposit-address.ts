import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { HDKey, HARDENED_OFFSET, type Versions } from '@scure/bip32';
import { bech32, createBase58check } from '@scure/base';

/**
 * Deposit addresses for sell orders: BIP84 native segwit (P2WPKH) addresses derived watch-only from the
 * operator's ACCOUNT public key (m/84'/coin'/account'), on the external chain: `m/0/index` below that
 * key. The server only ever holds the public key; a private key given here is refused outright.
 *
 * Accepted keys (SLIP-132 versions are converted to the plain BIP32 ones before parsing):
 * - mainnet: zpub (BIP84) or xpub;
 * - testnet and regtest: vpub (BIP84) or tpub.
 * ypub/upub (BIP49, P2SH-wrapped) and Zpub/Vpub (multisig) are refused: the operator's wallet would
 * watch a different script type than the one derived here, and coins sent to those addresses would go
 * unnoticed by it.
 */

export type DepositNetwork = 'mainnet' | 'testnet' | 'regtest';

/** A key that cannot be used for deposit addresses. The message names the problem, never the key. */
export class DepositKeyError extends Error {
  override name = 'DepositKeyError';
}

/**
 * The BIP84 testnet account key m/84'/1'/0' of the well-known test mnemonic
 * 'abandon abandon … abandon about' (BIP84's own test vector). Demo mode derives its deposit addresses
 * from it; a test recomputes it from the mnemonic. Never use it for real coins: its seed is public.
 */
export const DEMO_ACCOUNT_VPUB =
  'vpub5Y6cjg78GGuNLsaPhmYsiw4gYX3HoQiRBiSwDaBXKUafCt9bNwWQiitDk5VZ5BVxYnQdwoTyXSs2JHRPAgjAvtbBrf8ZhDYe2jWAqvZVnsc';

export const BECH32_PREFIX: Record<DepositNetwork, string> = {
  mainnet: 'bc',
  testnet: 'tb',
  regtest: 'bcrt',
};

export const MAINNET_BIP32: Versions = { public: 0x0488b21e, private: 0x0488ade4 };
export const TESTNET_BIP32: Versions = { public: 0x043587cf, private: 0x04358394 };

export type KeyNetwork = 'mainnet' | 'testnet';

export interface KnownVersion {
  name: string;
  network: KeyNetwork;
  kind: 'public' | 'private';
  /** Only BIP84 single-signature keys (and their plain BIP32 form) are usable here. */
  usable: boolean;
}

/** SLIP-132 version bytes of extended keys (also read by the payout address book). */
export const KNOWN_VERSIONS: ReadonlyMap<number, KnownVersion> = new Map<number, KnownVersion>([
  [0x0488b21e, { name: 'xpub', network: 'mainnet', kind: 'public', usable: true }],
  [0x04b24746, { name: 'zpub', network: 'mainnet', kind: 'public', usable: true }],
  [0x049d7cb2, { name: 'ypub', network: 'mainnet', kind: 'public', usable: false }],
  [0x02aa7ed3, { name: 'Zpub', network: 'mainnet', kind: 'public', usable: false }],
  [0x0295b43f, { name: 'Ypub', network: 'mainnet', kind: 'public', usable: false }],
  [0x043587cf, { name: 'tpub', network: 'testnet', kind: 'public', usable: true }],
  [0x045f1cf6, { name: 'vpub', network: 'testnet', kind: 'public', usable: true }],
  [0x044a5262, { name: 'upub', network: 'testnet', kind: 'public', usable: false }],
  [0x02575483, { name: 'Vpub', network: 'testnet', kind: 'public', usable: false }],
  [0x024289ef, { name: 'Upub', network: 'testnet', kind: 'public', usable: false }],
  [0x0488ade4, { name: 'xprv', network: 'mainnet', kind: 'private', usable: false }],
  [0x04b2430c, { name: 'zprv', network: 'mainnet', kind: 'private', usable: false }],
  [0x049d7878, { name: 'yprv', network: 'mainnet', kind: 'private', usable: false }],
  [0x02aa7a99, { name: 'Zprv', network: 'mainnet', kind: 'private', usable: false }],
  [0x0295b005, { name: 'Yprv', network: 'mainnet', kind: 'private', usable: false }],
  [0x04358394, { name: 'tprv', network: 'testnet', kind: 'private', usable: false }],
  [0x045f18bc, { name: 'vprv', network: 'testnet', kind: 'private', usable: false }],
  [0x044a4e28, { name: 'uprv', network: 'testnet', kind: 'private', usable: false }],
  [0x02575048, { name: 'Vprv', network: 'testnet', kind: 'private', usable: false }],
  [0x024285b5, { name: 'Uprv', network: 'testnet', kind: 'private', usable: false }],
]);

export const base58check = createBase58check(sha256);
const EXTENDED_KEY_BYTES = 78;
const ACCOUNT_DEPTH = 3;
const EXTERNAL_CHAIN = 0;

export function keyNetworkOf(network: DepositNetwork): KeyNetwork {
  // Regtest wallets use the testnet key versions (tpub/vpub); only the address prefix differs.
  return network === 'mainnet' ? 'mainnet' : 'testnet';
}

function checkNetworkArgument(network: DepositNetwork): void {
  if (network !== 'mainnet' && network !== 'testnet' && network !== 'regtest') {
    throw new DepositKeyError(
      `Unknown bitcoin network "${String(network)}": use mainnet, testnet or regtest.`,
    );
  }
}

function expectedKeyNames(network: DepositNetwork): string {
  return keyNetworkOf(network) === 'mainnet' ? 'a zpub or xpub' : 'a vpub or tpub';
}

/**
 * Parses and checks a BIP84 account public key (m/84'/coin'/account'); answers the account key.
 * `label` names the key in messages ("deposit account key", "payout wallet key").
 */
export function parseAccountPublicKey(
  accountExtendedKey: string,
  network: DepositNetwork,
  label = 'deposit account key',
): HDKey {
  checkNetworkArgument(network);
  const expected = expectedKeyNames(network);
  if (typeof accountExtendedKey !== 'string' || accountExtendedKey.length === 0) {
    throw new DepositKeyError(`The ${label} is missing: give ${expected} account key.`);
  }

  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(accountExtendedKey);
  } catch {
    throw new DepositKeyError(
      `The ${label} is not a valid extended key (bad characters or checksum): give ${expected} account key.`,
    );
  }
  if (bytes.length !== EXTENDED_KEY_BYTES) {
    throw new DepositKeyError(
      `The ${label} is not a valid extended key (wrong length): give ${expected} account key.`,
    );
  }

  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(0, false);
  const known = KNOWN_VERSIONS.get(version);
  // The key data starts with 0x00 for a private key, 0x02/0x03 for a compressed public key.
  if (known?.kind === 'private' || bytes[45] === 0) {
    throw new DepositKeyError(
      `The ${label} is a PRIVATE key${known ? ` (${known.name})` : ''}. ` +
        `The server must never hold a private key: give the account's public key (${expected}) and keep the private key in the wallet.`,
    );
  }
  if (!known) {
    throw new DepositKeyError(`The ${label} has an unknown version: give ${expected} account key.`);
  }
  if (known.network !== keyNetworkOf(network)) {
    throw new DepositKeyError(
      `The ${label} is a ${known.network} key (${known.name}) but the bitcoin network is ${network}: give ${expected} account key.`,
    );
  }
  if (!known.usable) {
    throw new DepositKeyError(
      `The ${label} is a ${known.name}, which is not for native segwit (BIP84) single-signature addresses: give ${expected} account key.`,
    );
  }

  const depth = bytes[4];
  if (depth !== ACCOUNT_DEPTH) {
    throw new DepositKeyError(
      `The ${label} has depth ${String(depth)}, but an account key (m/84'/coin'/account') has depth ${ACCOUNT_DEPTH}: export the account's ${expected}, not the master key or an address key.`,
    );
  }
  if (view.getUint32(9, false) < HARDENED_OFFSET) {
    throw new DepositKeyError(
      `The ${label} is not a hardened account key (m/84'/coin'/account'): export the account's ${expected}.`,
    );
  }

  const versions = keyNetworkOf(network) === 'mainnet' ? MAINNET_BIP32 : TESTNET_BIP32;
  const converted = Uint8Array.from(bytes);
  new DataView(converted.buffer).setUint32(0, versions.public, false);
  let account: HDKey;
  try {
    account = HDKey.fromExtendedKey(base58check.encode(converted), versions);
  } catch {
    throw new DepositKeyError(`The ${label} does not hold a valid public key: give ${expected} account key.`);
  }
  return account;
}

/** Parsed external chains by network and key; in practice there is one key, so this stays tiny. */
const externalChains = new Map<string, HDKey>();
const MAX_CACHED_KEYS = 16;

function externalChainOf(accountExtendedKey: string, network: DepositNetwork): HDKey {
  const cacheKey = `${network}:${accountExtendedKey}`;
  const cached = externalChains.get(cacheKey);
  if (cached) return cached;
  const chain = parseAccountPublicKey(accountExtendedKey, network).deriveChild(EXTERNAL_CHAIN);
  if (externalChains.size >= MAX_CACHED_KEYS) externalChains.clear();
  externalChains.set(cacheKey, chain);
  return chain;
}

/**
 * Checks at start-up that the configured account key can derive deposit addresses on `network`;
 * throws a `DepositKeyError` with a message for the operator otherwise.
 */
export function assertUsableAccountKey(accountExtendedKey: string, network: DepositNetwork): void {
  externalChainOf(accountExtendedKey, network);
}

/**
 * The P2WPKH deposit address at `m/0/index` below the account key: bc1… on mainnet, tb1… on testnet,
 * bcrt1… on regtest. Each index gives a different address; callers store the index with the order and
 * never reuse one.
 */
export function deriveDepositAddress(
  accountExtendedKey: string,
  index: number,
  network: DepositNetwork,
): string {
  if (!Number.isSafeInteger(index) || index < 0 || index >= HARDENED_OFFSET) {
    throw new RangeError(
      `A deposit address index must be a whole number from 0 to ${HARDENED_OFFSET - 1}, not ${String(index)}.`,
    );
  }
  const child = externalChainOf(accountExtendedKey, network).deriveChild(index);
  const publicKey = child.publicKey;
  if (!publicKey) throw new DepositKeyError('The derived deposit key has no public key.');
  const keyHash = ripemd160(sha256(publicKey));
  return bech32.encode(BECH32_PREFIX[network], [0, ...bech32.toWords(keyHash)]);
}
