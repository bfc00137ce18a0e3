import { createBase58check } from '@scure/base';
import { sha256 } from '@noble/hashes/sha2.js';
import { HDKey, type Versions } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import { PayoutKeyError, derivePayoutAddress, parsePayoutXpub } from './payout-xpub';

/**
 * Customer keys of the well-known test mnemonic ('abandon … about'), whose first receive addresses
 * BIP44, BIP49 and BIP84 publish: each version prefix must give its own script type.
 */
const seed = mnemonicToSeedSync(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);
const MAINNET: Versions = { public: 0x0488b21e, private: 0x0488ade4 };
const TESTNET: Versions = { public: 0x043587cf, private: 0x04358394 };
const base58check = createBase58check(sha256);

function withVersion(key: string, version: number): string {
  const bytes = Uint8Array.from(base58check.decode(key));
  new DataView(bytes.buffer).setUint32(0, version, false);
  return base58check.encode(bytes);
}
const account = (versions: Versions, path: string) => HDKey.fromMasterSeed(seed, versions).derive(path);

const keys = {
  xpub: account(MAINNET, "m/44'/0'/0'").publicExtendedKey,
  ypub: withVersion(account(MAINNET, "m/49'/0'/0'").publicExtendedKey, 0x049d7cb2),
  zpub: withVersion(account(MAINNET, "m/84'/0'/0'").publicExtendedKey, 0x04b24746),
  tpub: account(TESTNET, "m/44'/1'/0'").publicExtendedKey,
  upub: withVersion(account(TESTNET, "m/49'/1'/0'").publicExtendedKey, 0x044a5262),
  vpub: withVersion(account(TESTNET, "m/84'/1'/0'").publicExtendedKey, 0x045f1cf6),
};

describe('payout addresses of a customer key', () => {
  it('derives the published first receive addresses, in the script type of each version', () => {
    expect(derivePayoutAddress(keys.xpub, 0, 'mainnet')).toBe('1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA');
    expect(derivePayoutAddress(keys.ypub, 0, 'mainnet')).toBe('37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf');
    expect(derivePayoutAddress(keys.zpub, 0, 'mainnet')).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    expect(derivePayoutAddress(keys.tpub, 0, 'testnet')).toBe('mkpZhYtJu2r87Js3pDiWJDmPte2NRZ8bJV');
    expect(derivePayoutAddress(keys.upub, 0, 'testnet')).toBe('2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2');
    expect(derivePayoutAddress(keys.vpub, 0, 'testnet')).toBe('tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl');
    expect(derivePayoutAddress(keys.vpub, 1, 'testnet')).toBe('tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97');
  });

  it('agrees with the private side for later indexes (receive chain m/0, never change m/1)', () => {
    const vpubAccount = account(TESTNET, "m/84'/1'/0'");
    for (const index of [2, 19, 1000]) {
      const fromPublic = derivePayoutAddress(keys.vpub, index, 'regtest');
      expect(fromPublic.startsWith('bcrt1q')).toBe(true);
      const receive = vpubAccount.derive(`m/0/${index}`).publicKey!;
      const change = vpubAccount.derive(`m/1/${index}`).publicKey!;
      expect(fromPublic).not.toBe(derivePayoutAddress(keys.vpub, index + 1, 'regtest'));
      expect(receive).not.toEqual(change);
    }
  });

  it('refuses every private key, saying so and never echoing it', () => {
    const privates = [
      account(MAINNET, "m/84'/0'/0'").privateExtendedKey,
      account(TESTNET, "m/84'/1'/0'").privateExtendedKey,
      withVersion(account(TESTNET, "m/84'/1'/0'").privateExtendedKey, 0x045f18bc),
    ];
    for (const [i, key] of privates.entries()) {
      const network = i === 0 ? 'mainnet' : 'testnet';
      let caught: unknown;
      try {
        parsePayoutXpub(key, network);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(PayoutKeyError);
      expect((caught as PayoutKeyError).isPrivateKey).toBe(true);
      expect((caught as Error).message).toMatch(/PRIVATE key/);
      expect((caught as Error).message).not.toContain(key.slice(4, 20));
    }
  });

  it('refuses keys of another network, multisig keys and garbage', () => {
    expect(() => parsePayoutXpub(keys.zpub, 'testnet')).toThrow(
      /mainnet key \(zpub\) but OffZero pays on testnet/,
    );
    expect(() => parsePayoutXpub(keys.vpub, 'mainnet')).toThrow(/testnet key \(vpub\)/);
    expect(() => parsePayoutXpub(withVersion(keys.vpub, 0x02575483), 'testnet')).toThrow(/multisig/);
    expect(() => parsePayoutXpub(`${keys.vpub.slice(0, -1)}x`, 'testnet')).toThrow(/checksum/);
    expect(() => parsePayoutXpub('vpub', 'testnet')).toThrow(PayoutKeyError);
  });
});
