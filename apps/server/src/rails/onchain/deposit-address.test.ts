import { isValidBitcoinAddress } from '@offzero/shared/bitcoin/address';
import { sha256 } from '@noble/hashes/sha2.js';
import { HDKey, type Versions } from '@scure/bip32';
import { createBase58check } from '@scure/base';
import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import {
  assertUsableAccountKey,
  DEMO_ACCOUNT_VPUB,
  DepositKeyError,
  deriveDepositAddress,
} from './deposit-address';
import * as reference from '../../test/bip84-reference';

// BIP84's published test vectors use this mnemonic. The values below are copied from the BIP's text
// (bitcoin/bips, bip-0084.mediawiki, "Test vectors"); the account zpub is in SLIP-132's examples. The
// server's derivation (deriveDepositAddress, from the account's public key) is checked against them and
// against an independent derivation (../test/bip84-reference); @scure/bip32 below only makes the keys
// the refusals are tried with.
const MNEMONIC =
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const seed = mnemonicToSeedSync(MNEMONIC);
const base58check = createBase58check(sha256);

const ZPUB_VERSIONS: Versions = { private: 0x04b2430c, public: 0x04b24746 };
const XPUB_VERSIONS: Versions = { private: 0x0488ade4, public: 0x0488b21e };
const VPUB_VERSIONS: Versions = { private: 0x045f18bc, public: 0x045f1cf6 };
const TPUB_VERSIONS: Versions = { private: 0x04358394, public: 0x043587cf };

const mainnetAccount = HDKey.fromMasterSeed(seed, ZPUB_VERSIONS).derive("m/84'/0'/0'");
const testnetAccount = HDKey.fromMasterSeed(seed, VPUB_VERSIONS).derive("m/84'/1'/0'");

/** BIP84's published root and account keys, and its first receive addresses. */
const BIP84_ROOT_ZPRV =
  'zprvAWgYBBk7JR8Gjrh4UJQ2uJdG1r3WNRRfURiABBE3RvMXYSrRJL62XuezvGdPvG6GFBZduosCc1YP5wixPox7zhZLfiUm8aunE96BBa4Kei5';
const BIP84_ZPUB =
  'zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDKf31mGDtKsAYz2oz2AGutZYs';
const BIP84_ZPRV =
  'zprvAdG4iTXWBoARxkkzNpNh8r6Qag3irQB8PzEMkAFeTRXxHpbF9z4QgEvBRmfvqWvGp42t42nvgGpNgYSJA9iefm1yYNZKEm7z6qUWCroSQnE';
const BIP84_VECTORS = [
  {
    index: 0,
    path: "m/84'/0'/0'/0/0",
    privkey: 'KyZpNDKnfs94vbrwhJneDi77V6jF64PWPF8x5cdJb8ifgg2DUc9d',
    pubkey: '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c',
    address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
  },
  {
    index: 1,
    path: "m/84'/0'/0'/0/1",
    privkey: 'Kxpf5b8p3qX56DKEe5NqWbNUP9MnqoRFzZwHRtsFqhzuvUJsYZCy',
    pubkey: '03e775fd51f0dfb8cd865d9ff1cca2a158cf651fe997fdc9fee9c1d3b5e995ea77',
    address: 'bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g',
  },
];
/** BIP84's first change address (m/84'/0'/0'/1/0): deposit addresses come from the receive chain. */
const BIP84_FIRST_CHANGE = {
  path: "m/84'/0'/0'/1/0",
  privkey: 'KxuoxufJL5csa1Wieb2kp29VNdn92Us8CoaUG3aGtPtcF3AzeXvF',
  pubkey: '03025324888e429ab8e3dbaf1f7802648b9cd01e9b418485c5fa4c1b9b5700e1a6',
  address: 'bc1q8c6fshw2dlwun7ekn9qwf37cu2rn755upcp6el',
};

/** The independent derivation's view of the same mnemonic, and its receive chains m/84'/coin'/0'/0. */
const referenceRoot = reference.masterNode(MNEMONIC);
const referenceReceiveChains = {
  mainnet: reference.derive(referenceRoot, "m/84'/0'/0'/0"),
  testnet: reference.derive(referenceRoot, "m/84'/1'/0'/0"),
};
/** The independent derivation's receive address `index` of the mainnet or testnet account. */
const referenceAddress = (coin: 'mainnet' | 'testnet', index: number, prefix: 'bc' | 'tb' | 'bcrt') =>
  reference.p2wpkhAddress(reference.derive(referenceReceiveChains[coin], `m/${index}`).publicKey, prefix);

/** The same key bytes under another version prefix (zpub → xpub, vpub → tpub, …). */
function withVersion(key: string, version: number): string {
  const bytes = Uint8Array.from(base58check.decode(key));
  new DataView(bytes.buffer).setUint32(0, version, false);
  return base58check.encode(bytes);
}

function expectDepositKeyError(run: () => unknown, message: RegExp): void {
  expect(run).toThrow(DepositKeyError);
  expect(run).toThrow(message);
}

describe('BIP84 vectors', () => {
  it("the tests' independent derivation reproduces every value BIP84 publishes", () => {
    expect(reference.extendedKey(referenceRoot, ZPUB_VERSIONS.private, 'private')).toBe(BIP84_ROOT_ZPRV);
    const account = reference.derive(referenceRoot, "m/84'/0'/0'");
    expect(reference.extendedKey(account, ZPUB_VERSIONS.private, 'private')).toBe(BIP84_ZPRV);
    expect(reference.extendedKey(account, ZPUB_VERSIONS.public, 'public')).toBe(BIP84_ZPUB);
    for (const vector of [...BIP84_VECTORS, BIP84_FIRST_CHANGE]) {
      const node = reference.derive(referenceRoot, vector.path);
      expect(reference.wif(node), vector.path).toBe(vector.privkey);
      expect(node.publicKey.toString('hex'), vector.path).toBe(vector.pubkey);
      expect(reference.p2wpkhAddress(node.publicKey, 'bc'), vector.path).toBe(vector.address);
    }
  });

  it('derives the published mainnet receive addresses from the published zpub', () => {
    for (const { index, address } of BIP84_VECTORS) {
      expect(deriveDepositAddress(BIP84_ZPUB, index, 'mainnet')).toBe(address);
    }
  });

  it("derives them from the account key of the mnemonic 'abandon … about', computed apart from the server", () => {
    const account = reference.derive(referenceRoot, "m/84'/0'/0'");
    const zpub = reference.extendedKey(account, ZPUB_VERSIONS.public, 'public');
    expect(() => assertUsableAccountKey(zpub, 'mainnet')).not.toThrow();
    expect(BIP84_VECTORS.map(({ index }) => deriveDepositAddress(zpub, index, 'mainnet'))).toEqual(
      BIP84_VECTORS.map(({ address }) => address),
    );
  });

  it('derives the same addresses from the same key given with the xpub version', () => {
    const xpub = withVersion(BIP84_ZPUB, XPUB_VERSIONS.public);
    expect(xpub.startsWith('xpub')).toBe(true);
    const account = reference.derive(referenceRoot, "m/84'/0'/0'");
    expect(xpub).toBe(reference.extendedKey(account, XPUB_VERSIONS.public, 'public'));
    for (const { index, address } of BIP84_VECTORS) {
      expect(deriveDepositAddress(xpub, index, 'mainnet')).toBe(address);
    }
  });

  it('derives from the receive chain m/0, never the change chain m/1', () => {
    const first = deriveDepositAddress(BIP84_ZPUB, 0, 'mainnet');
    expect(first).toBe(BIP84_VECTORS[0]!.address);
    expect(first).not.toBe(BIP84_FIRST_CHANGE.address);
  });

  it('matches addresses the independent derivation computes from the private side, for many indexes', () => {
    for (const index of [0, 1, 2, 19, 20, 1000, 2 ** 31 - 1]) {
      const expected = referenceAddress('mainnet', index, 'bc');
      expect(deriveDepositAddress(BIP84_ZPUB, index, 'mainnet'), String(index)).toBe(expected);
      expect(isValidBitcoinAddress(expected, 'mainnet')).toBe(true);
    }
  });
});

describe('testnet and regtest', () => {
  it("DEMO_ACCOUNT_VPUB is the m/84'/1'/0' account key of the test mnemonic", () => {
    const account = reference.derive(referenceRoot, "m/84'/1'/0'");
    expect(DEMO_ACCOUNT_VPUB).toBe(reference.extendedKey(account, VPUB_VERSIONS.public, 'public'));
    expect(DEMO_ACCOUNT_VPUB.startsWith('vpub')).toBe(true);
  });

  it('matches the independent derivation on testnet and regtest, for many indexes', () => {
    for (const index of [0, 1, 2, 20, 1000, 2 ** 31 - 1]) {
      const path = `m/84'/1'/0'/0/${index}`;
      expect(deriveDepositAddress(DEMO_ACCOUNT_VPUB, index, 'testnet'), path).toBe(
        referenceAddress('testnet', index, 'tb'),
      );
      expect(deriveDepositAddress(DEMO_ACCOUNT_VPUB, index, 'regtest'), path).toBe(
        referenceAddress('testnet', index, 'bcrt'),
      );
    }
  });

  it('derives BIP84 testnet addresses from the vpub and from the same key as tpub', () => {
    const tpub = withVersion(DEMO_ACCOUNT_VPUB, TPUB_VERSIONS.public);
    expect(tpub.startsWith('tpub')).toBe(true);
    expect(deriveDepositAddress(DEMO_ACCOUNT_VPUB, 0, 'testnet')).toBe(
      'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl',
    );
    expect(deriveDepositAddress(DEMO_ACCOUNT_VPUB, 1, 'testnet')).toBe(
      'tb1qd7spv5q28348xl4myc8zmh983w5jx32cjhkn97',
    );
    expect(deriveDepositAddress(tpub, 0, 'testnet')).toBe('tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl');
  });

  it('uses the bcrt prefix on regtest with the same testnet keys', () => {
    const address = deriveDepositAddress(DEMO_ACCOUNT_VPUB, 0, 'regtest');
    expect(address).toBe('bcrt1q6rz28mcfaxtmd6v789l9rrlrusdprr9pz3cppk');
    expect(isValidBitcoinAddress(address, 'regtest')).toBe(true);
    expect(isValidBitcoinAddress(address, 'testnet')).toBe(false);
  });

  it('gives 1000 distinct valid addresses for 1000 consecutive indexes', () => {
    for (const network of ['mainnet', 'testnet'] as const) {
      const key = network === 'mainnet' ? BIP84_ZPUB : DEMO_ACCOUNT_VPUB;
      const addresses = new Set<string>();
      for (let index = 0; index < 1000; index += 1) {
        const address = deriveDepositAddress(key, index, network);
        expect(isValidBitcoinAddress(address, network)).toBe(true);
        addresses.add(address);
      }
      expect(addresses.size).toBe(1000);
    }
  });
});

describe('refusals', () => {
  const privateKeys = {
    zprv: BIP84_ZPRV,
    xprv: HDKey.fromMasterSeed(seed, XPUB_VERSIONS).derive("m/84'/0'/0'").privateExtendedKey,
    vprv: testnetAccount.privateExtendedKey,
    tprv: HDKey.fromMasterSeed(seed, TPUB_VERSIONS).derive("m/84'/1'/0'").privateExtendedKey,
  };

  it.each(Object.entries(privateKeys))('refuses a private key (%s) and never repeats it', (name, key) => {
    expect(key.startsWith(name)).toBe(true);
    const network = name === 'zprv' || name === 'xprv' ? 'mainnet' : 'testnet';
    for (const run of [
      () => deriveDepositAddress(key, 0, network),
      () => assertUsableAccountKey(key, network),
      // Refused whatever the network, before any network mismatch is mentioned.
      () => assertUsableAccountKey(key, network === 'mainnet' ? 'testnet' : 'mainnet'),
    ]) {
      expectDepositKeyError(run, /PRIVATE key/);
      try {
        run();
      } catch (error) {
        expect((error as Error).message).not.toContain(key.slice(4, 20));
      }
    }
  });

  it('refuses private key bytes even under a public version', () => {
    const disguised = withVersion(BIP84_ZPRV, ZPUB_VERSIONS.public);
    expect(disguised.startsWith('zpub')).toBe(true);
    expectDepositKeyError(() => assertUsableAccountKey(disguised, 'mainnet'), /PRIVATE key/);
  });

  it('refuses a key of the wrong network', () => {
    expectDepositKeyError(
      () => deriveDepositAddress(BIP84_ZPUB, 0, 'testnet'),
      /mainnet key \(zpub\).*testnet/,
    );
    expectDepositKeyError(() => deriveDepositAddress(BIP84_ZPUB, 0, 'regtest'), /mainnet key.*regtest/);
    expectDepositKeyError(
      () => deriveDepositAddress(DEMO_ACCOUNT_VPUB, 0, 'mainnet'),
      /testnet key \(vpub\).*mainnet/,
    );
    expectDepositKeyError(
      () => assertUsableAccountKey(withVersion(DEMO_ACCOUNT_VPUB, TPUB_VERSIONS.public), 'mainnet'),
      /testnet key \(tpub\)/,
    );
  });

  it('refuses keys that are not account keys (depth 3, hardened)', () => {
    const master = HDKey.fromMasterSeed(seed, ZPUB_VERSIONS).publicExtendedKey;
    const purpose = HDKey.fromMasterSeed(seed, ZPUB_VERSIONS).derive("m/84'/0'").publicExtendedKey;
    const chain = mainnetAccount.derive('m/0').publicExtendedKey;
    const address = mainnetAccount.derive('m/0/0').publicExtendedKey;
    expectDepositKeyError(() => assertUsableAccountKey(master, 'mainnet'), /depth 0/);
    expectDepositKeyError(() => assertUsableAccountKey(purpose, 'mainnet'), /depth 2/);
    expectDepositKeyError(() => assertUsableAccountKey(chain, 'mainnet'), /depth 4/);
    expectDepositKeyError(() => deriveDepositAddress(address, 0, 'mainnet'), /depth 5/);
    const unhardened = HDKey.fromMasterSeed(seed, ZPUB_VERSIONS).derive('m/84/0/0').publicExtendedKey;
    expectDepositKeyError(() => assertUsableAccountKey(unhardened, 'mainnet'), /not a hardened account key/);
  });

  it('refuses BIP49 and multisig key versions', () => {
    expectDepositKeyError(
      () => assertUsableAccountKey(withVersion(BIP84_ZPUB, 0x049d7cb2), 'mainnet'),
      /ypub/,
    );
    expectDepositKeyError(
      () => assertUsableAccountKey(withVersion(BIP84_ZPUB, 0x02aa7ed3), 'mainnet'),
      /Zpub/,
    );
    expectDepositKeyError(
      () => assertUsableAccountKey(withVersion(DEMO_ACCOUNT_VPUB, 0x044a5262), 'testnet'),
      /upub/,
    );
    expectDepositKeyError(
      () => assertUsableAccountKey(withVersion(BIP84_ZPUB, 0x01020304), 'mainnet'),
      /unknown version/,
    );
  });

  it('refuses text that is not an extended key', () => {
    const badChecksum = BIP84_ZPUB.slice(0, -1) + (BIP84_ZPUB.endsWith('s') ? 't' : 's');
    for (const text of [
      badChecksum,
      '',
      'not a key',
      ` ${BIP84_ZPUB}`,
      'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      base58check.encode(new Uint8Array(40)),
    ]) {
      expect(() => assertUsableAccountKey(text, 'mainnet')).toThrow(DepositKeyError);
    }
    expect(() => assertUsableAccountKey(undefined as unknown as string, 'mainnet')).toThrow(/missing/);
    // A 78-byte key whose public key is not a point on the curve.
    const bytes = Uint8Array.from(base58check.decode(BIP84_ZPUB));
    bytes.fill(0x05, 46);
    expectDepositKeyError(
      () => assertUsableAccountKey(base58check.encode(bytes), 'mainnet'),
      /valid public key/,
    );
  });

  it('refuses an unknown network', () => {
    expectDepositKeyError(
      () => assertUsableAccountKey(BIP84_ZPUB, 'signet' as 'mainnet'),
      /Unknown bitcoin network/,
    );
  });

  it('refuses indexes outside 0 … 2^31 − 1', () => {
    for (const index of [
      -1,
      2 ** 31,
      2 ** 32,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '0' as unknown as number,
    ]) {
      expect(() => deriveDepositAddress(BIP84_ZPUB, index, 'mainnet')).toThrow(
        /index must be a whole number/,
      );
    }
  });

  it('accepts the published keys at start-up', () => {
    expect(() => assertUsableAccountKey(BIP84_ZPUB, 'mainnet')).not.toThrow();
    expect(() => assertUsableAccountKey(DEMO_ACCOUNT_VPUB, 'testnet')).not.toThrow();
    expect(() => assertUsableAccountKey(DEMO_ACCOUNT_VPUB, 'regtest')).not.toThrow();
  });
});
