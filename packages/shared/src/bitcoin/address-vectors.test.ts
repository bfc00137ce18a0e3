import { bech32, bech32m, hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { readBitcoinAddress, type AddressProblem, type BitcoinNetwork } from './address';
import bip173 from './vectors/bip173.json';
import bip350 from './vectors/bip350.json';
import keyIo from './vectors/key_io.json';

/*
 * The official vectors, kept verbatim in ./vectors with their source: BIP173 (bech32) and BIP350
 * (bech32m) from bitcoin/bips, and Bitcoin Core's base58check and segwit address vectors (key_io).
 * Some addresses those documents call valid are refused on purpose (see address.ts): segwit versions
 * nothing spends yet, v1+ addresses with BIP173's old checksum (BIP350 replaced it), and taproot
 * programs that are not public keys. Each of those is checked to be refused for exactly that reason.
 */

const CHAIN_NETWORK: Record<string, BitcoinNetwork> = {
  main: 'mainnet',
  testnet4: 'testnet',
  signet: 'testnet',
  regtest: 'regtest',
};

/** A witness program's version and bytes, read from a segwit output script (OP_n <push>). */
function witnessOf(scriptHex: string): { version: number; program: Uint8Array } | null {
  const script = hex.decode(scriptHex);
  const [op, length] = script;
  if (op === undefined || length !== script.length - 2) return null;
  if (op === 0x00) return { version: 0, program: script.subarray(2) };
  if (op >= 0x51 && op <= 0x60) return { version: op - 0x50, program: script.subarray(2) };
  return null;
}

/** Which refusal a valid-by-the-vector address gets, from the vector's own output script. */
function deliberateRefusal(scriptHex: string): AddressProblem | null {
  const witness = witnessOf(scriptHex);
  if (!witness) return null;
  if (witness.version === 1 && witness.program.length === 32) return 'taproot-key';
  return witness.version >= 1 ? 'kind' : null;
}

/** The refusal each reason the BIPs give for an invalid segwit address leads to. */
const PROBLEM_OF_REASON: Array<[RegExp, AddressProblem[]]> = [
  [/human-readable part/, ['not-an-address']],
  [/^Invalid checksum/, ['checksum']],
  [/character in checksum/, ['characters']],
  [/witness version$/, ['not-an-address']],
  // BIP173's v3 and v16 examples of bad lengths carry the old checksum BIP350 no longer allows.
  [/program length/, ['length', 'checksum']],
  [/Mixed case/, ['mixed-case']],
  [/padding/, ['length', 'checksum']],
  [/Empty data section/, ['length']],
];

describe('BIP173 and BIP350 segwit address vectors', () => {
  const valid = [...bip173.valid_addresses, ...bip350.valid_addresses];
  const invalid = [...bip173.invalid_addresses, ...bip350.invalid_addresses];

  it.each(valid)('reads $address as its output script, or refuses it for a stated reason', (vector) => {
    const reading = readBitcoinAddress(vector.address);
    const witness = witnessOf(vector.script_pubkey);
    if (reading.ok) {
      expect(hex.encode(reading.address.outputScript)).toBe(vector.script_pubkey);
      return;
    }
    if (witness && witness.version >= 1 && bip173.valid_addresses.includes(vector)) {
      // BIP350 moved every v1+ address to the bech32m checksum: BIP173's own v1+ examples are now invalid.
      expect(bip350.valid_addresses.map((v) => v.address)).not.toContain(vector.address);
      expect(reading.problem).toBe('checksum');
      return;
    }
    expect(reading.problem).toBe(deliberateRefusal(vector.script_pubkey));
  });

  it('accepts every v0 and taproot example of both BIPs', () => {
    const payable = valid.filter((vector) => {
      const witness = witnessOf(vector.script_pubkey)!;
      return witness.version === 0 || (witness.version === 1 && witness.program.length === 32);
    });
    expect(payable.length).toBeGreaterThanOrEqual(6);
    for (const vector of payable) expect(readBitcoinAddress(vector.address).ok, vector.address).toBe(true);
  });

  it.each(invalid)('refuses $address ($reason) and says what is wrong', (vector) => {
    const reading = readBitcoinAddress(vector.address);
    expect(reading.ok).toBe(false);
    if (reading.ok) return;
    const expected = PROBLEM_OF_REASON.find(([reason]) => reason.test(vector.reason));
    expect(expected, vector.reason).toBeDefined();
    expect(expected![1]).toContain(reading.problem);
    expect(reading.message.length).toBeGreaterThan(10);
  });
});

describe('BIP173 and BIP350 checksum vectors', () => {
  // The validator checks segwit checksums with these two codecs; none of these strings is an address.
  it.each(bip173.valid_bech32)('bech32 accepts %s, and the validator refuses it as no address', (text) => {
    expect(bech32.decodeUnsafe(text, 90)).toBeDefined();
    expect(bech32m.decodeUnsafe(text, 90)).toBeUndefined();
    expect(readBitcoinAddress(text).ok).toBe(false);
  });

  it.each(bip350.valid_bech32m)('bech32m accepts %s, and the validator refuses it as no address', (text) => {
    expect(bech32m.decodeUnsafe(text, 90)).toBeDefined();
    expect(bech32.decodeUnsafe(text, 90)).toBeUndefined();
    expect(readBitcoinAddress(text).ok).toBe(false);
  });

  it.each([
    ...bip173.invalid_bech32.map((vector) => ({ ...vector, codec: bech32 })),
    ...bip350.invalid_bech32m.map((vector) => ({ ...vector, codec: bech32m })),
  ])('refuses $string ($reason)', ({ string, codec }) => {
    expect(codec.decodeUnsafe(string, 90)).toBeUndefined();
    expect(readBitcoinAddress(string).ok).toBe(false);
  });
});

describe('Bitcoin Core key_io base58check and segwit address vectors', () => {
  it.each(keyIo.valid)(
    'reads $address as its output script on $chain, or refuses it for a stated reason',
    (vector) => {
      const network = CHAIN_NETWORK[vector.chain]!;
      const reading = readBitcoinAddress(vector.address, network);
      const flipped = readBitcoinAddress(
        vector.address === vector.address.toLowerCase() && /^(bc|tb|bcrt)1/.test(vector.address)
          ? vector.address.toUpperCase()
          : vector.address,
        network,
      );
      expect(flipped).toEqual(reading);
      if (reading.ok) {
        expect(hex.encode(reading.address.outputScript)).toBe(vector.script_pubkey);
        expect(reading.address.network).toBe(network);
        return;
      }
      const refusal = deliberateRefusal(vector.script_pubkey);
      expect(refusal, reading.message).not.toBeNull();
      expect(reading.problem).toBe(refusal);
    },
  );

  it('accepts every base58check, v0 and valid taproot address among them', () => {
    const accepted = keyIo.valid.filter((vector) => readBitcoinAddress(vector.address).ok);
    const payable = keyIo.valid.filter((vector) => deliberateRefusal(vector.script_pubkey) === null);
    expect(payable.every((vector) => accepted.includes(vector))).toBe(true);
    expect(accepted.length).toBeGreaterThanOrEqual(40);
  });

  it('refuses the official taproot examples whose program is not a public key', () => {
    const refused = keyIo.valid.filter((vector) => {
      const reading = readBitcoinAddress(vector.address);
      return !reading.ok && reading.problem === 'taproot-key';
    });
    expect(refused.map((vector) => vector.address)).toEqual([
      'tb1pae5um27ahn8n73pgexe3kcwlp8dhswpn684h2k2w6t9a7w3eq65qephd5y',
      'bcrt1pfwxjqvtt4tcxrtdluukfmy2dv7xd2qzdfy6kajv5nwn4yam3wxkq3553uh',
      'bc1pve739yap4uxjvfk0jrey69078u0gasm2nwvv483ec6zkzulgw9xqu4w9fd',
      'tb1pwst9qszjrhuv2e7as0flcq9gm698v6gdxzz9e87p07s8rssdx3zqklm3vf',
      'bcrt1p39a4s4vdcw9kqa8w2t0rp7aj8kfxyw7mce5sk5d70x6wnnmpvt7skf2kxy',
    ]);
  });

  it.each(keyIo.invalid)('refuses %j with a message', (text) => {
    const reading = readBitcoinAddress(text);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.message).toMatch(/\.$/);
  });
});
