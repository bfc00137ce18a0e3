import { HARDENED_OFFSET, type HDKey } from '@scure/bip32';
import { hex } from '@scure/base';
import { p2wpkh } from '@scure/btc-signer';
import { btcSignerNetwork, type BitcoinNetworkName } from '../../chain/raw-transaction';
import { DepositKeyError, parseAccountPublicKey } from '../../rails/onchain/deposit-address';

/**
 * The operator's watch-only payout wallet (docs/design.md): a BIP84 account public key, optionally with
 * its key origin as in output descriptors — `[d34db33f/84h/0h/0h]zpub…` — so the PSBTs the server builds
 * carry full BIP32 derivations (master fingerprint and path) and a hardware wallet can sign them. Without
 * an origin the derivations are relative to the account key (fingerprint of the account key, path
 * m/chain/index), which software wallets that imported the xpub accept.
 *
 * Receive addresses are m/0/i, change addresses m/1/i. The server never holds a private key.
 */

export interface PayoutWallet {
  network: BitcoinNetworkName;
  /** Derivations in PSBTs start here. */
  fingerprint: number;
  originPath: number[];
  /** The P2WPKH address, public key and script at m/chain/index. */
  derive(chain: 0 | 1, index: number): WalletAddress;
}

export interface WalletAddress {
  chain: 0 | 1;
  index: number;
  address: string;
  publicKey: Uint8Array;
  script: Uint8Array;
  /** The full path from the fingerprint's key, for the PSBT's bip32Derivation. */
  path: number[];
}

const ORIGIN = /^\[([0-9a-fA-F]{8})((?:\/[0-9]{1,10}['hH]?)*)\](.+)$/;

export function parsePayoutWallet(descriptor: string, network: BitcoinNetworkName): PayoutWallet {
  const text = typeof descriptor === 'string' ? descriptor.trim() : '';
  const match = ORIGIN.exec(text);
  const keyText = match ? match[3]! : text;
  if (!match && text.startsWith('[')) {
    throw new DepositKeyError(
      'The payout wallet key origin must look like [d34db33f/84h/0h/0h] followed by the account key.',
    );
  }
  const account: HDKey = parseAccountPublicKey(keyText, network, 'payout wallet key');
  let fingerprint = account.fingerprint;
  let originPath: number[] = [];
  if (match) {
    fingerprint = Number.parseInt(match[1]!, 16);
    originPath = match[2]!
      .split('/')
      .filter((part) => part.length > 0)
      .map((part) => {
        const hardened = /['hH]$/.test(part);
        const index = Number(hardened ? part.slice(0, -1) : part);
        if (!Number.isSafeInteger(index) || index >= HARDENED_OFFSET) {
          throw new DepositKeyError('The payout wallet key origin has an index out of range.');
        }
        return hardened ? index + HARDENED_OFFSET : index;
      });
    if (originPath.length !== 3) {
      throw new DepositKeyError(
        "The payout wallet key origin must name the account path m/84'/coin'/account', e.g. [d34db33f/84h/0h/0h].",
      );
    }
  }
  const params = btcSignerNetwork(network);
  const chains = [account.deriveChild(0), account.deriveChild(1)] as const;
  const cache = new Map<string, WalletAddress>();

  return {
    network,
    fingerprint,
    originPath,
    derive(chain, index) {
      if (!Number.isSafeInteger(index) || index < 0 || index >= HARDENED_OFFSET) {
        throw new RangeError(`A wallet address index must be 0 to ${HARDENED_OFFSET - 1}.`);
      }
      const key = `${chain}/${index}`;
      const cached = cache.get(key);
      if (cached) return cached;
      const publicKey = chains[chain].deriveChild(index).publicKey;
      if (!publicKey) throw new DepositKeyError('The payout wallet key derived no public key.');
      const payment = p2wpkh(publicKey, params);
      const derived: WalletAddress = {
        chain,
        index,
        address: payment.address,
        publicKey,
        script: payment.script,
        path: [...originPath, chain, index],
      };
      if (cache.size > 10_000) cache.clear();
      cache.set(key, derived);
      return derived;
    },
  };
}

/** A key's fingerprint as the 8 hexadecimal characters wallets show. */
export const fingerprintHex = (fingerprint: number) =>
  hex.encode(
    Uint8Array.of(
      fingerprint >>> 24,
      (fingerprint >>> 16) & 0xff,
      (fingerprint >>> 8) & 0xff,
      fingerprint & 0xff,
    ),
  );
