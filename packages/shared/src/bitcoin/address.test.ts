import { bech32m, hex } from '@scure/base';
import { describe, expect, it } from 'vitest';
import {
  bitcoinAddressNetwork,
  bitcoinAddressProblem,
  isValidBitcoinAddress,
  readBitcoinAddress,
  type AddressProblem,
  type BitcoinNetwork,
} from './address';

/** Known-good addresses, each with the network it belongs to. */
const VALID: ReadonlyArray<[label: string, address: string, network: BitcoinNetwork]> = [
  ['genesis block p2pkh', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'mainnet'],
  ['p2pkh of the BIP173 key hash', '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH', 'mainnet'],
  ['p2sh', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'mainnet'],
  ['BIP173 p2wpkh', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'mainnet'],
  ['BIP173 p2wpkh in upper case', 'BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', 'mainnet'],
  ['BIP350 p2tr', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0', 'mainnet'],
  ['testnet p2pkh (m)', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'testnet'],
  ['testnet p2pkh (n)', 'n3GNqMveyvaPvUbH469vDRadqpJMPc84JA', 'testnet'],
  ['testnet p2sh', '2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf', 'testnet'],
  ['testnet p2wpkh', 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'testnet'],
  ['BIP350 testnet p2wsh', 'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7', 'testnet'],
  [
    'BIP350 testnet p2wsh, leading zeros',
    'tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy',
    'testnet',
  ],
  ['BIP350 testnet p2tr', 'tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c', 'testnet'],
  ['regtest p2wpkh', 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080', 'regtest'],
  ['regtest p2wsh', 'bcrt1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqjsgj9x', 'regtest'],
  ['regtest p2tr', 'bcrt1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqc8gma6', 'regtest'],
];

const INVALID: ReadonlyArray<[reason: string, address: string]> = [
  ['empty', ''],
  ['spaces only', '   '],
  ['a word', 'bitcoin'],
  ['genesis p2pkh with its last character changed', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb'],
  ['genesis p2pkh with two characters swapped', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivNfa'],
  ['a garbled genesis address', '1A1zP1eP5QGefi2DMPTfTL5SL6Rh1tGqaU'],
  ['p2sh with a character changed', '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLz'],
  ['testnet p2pkh with a character changed', 'mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfm'],
  ['p2wpkh with its last character changed', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5'],
  ['p2tr with a character changed', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj2'],
  ['base58 with 0', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0'],
  ['base58 with O', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNO'],
  ['base58 with I', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNI'],
  ['base58 with l', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNl'],
  ['base58, a character dropped', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN'],
  ['base58, a character added', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNaa'],
  ['base58 of an unknown version (a Litecoin address)', 'LVuDpNCSSj6pQ7t9Pv6d6sUkLKoqDEVUnJ'],
  ['mixed-case bech32', 'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ['mixed-case bech32, prefix only', 'BC1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ['bech32 without its separator', 'bcqw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ['bech32 with b, a character outside its alphabet', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3tb'],
  ['bech32 with fewer than 6 data characters', 'bc1qw508'],
  ['checksum-valid bech32 longer than 90 characters', `bc1q${'q'.repeat(84)}jwjsd3`],
  ['leading space', ' 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['trailing space', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa '],
  ['trailing newline on bech32', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4\n'],
  ['leading space on bech32', ' bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4'],
  ['space inside', 'bc1qw508d6qejxtdg4y5r3zarv ary0c5xw7kv8f3t4'],
  ['bitcoin: URI instead of an address', 'bitcoin:1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'],
  ['p2pkh repeated past any sane length', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa'.repeat(20)],
  // BIP350: witness versions and program lengths nothing spends today.
  [
    'witness v1 with a 40-byte program',
    'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
  ],
  ['witness v16', 'BC1SW50QGDZ25J'],
  ['witness v2', 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs'],
  ['witness v1 with a 20-byte program', 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kj9wkru'],
  // BIP350 invalid segwit addresses.
  ['invalid human-readable part', 'tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut'],
  ['v1 with a bech32 checksum', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd'],
  ['v2 with a bech32 checksum', 'tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf'],
  ['v16 with a bech32 checksum', 'BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL'],
  ['v0 with a bech32m checksum', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh'],
  ['v0 p2wsh with a bech32m checksum', 'tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47'],
  ['invalid character in checksum', 'bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4'],
  ['invalid witness version', 'BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R'],
  ['1-byte program', 'bc1pw5dgrnzv'],
  ['41-byte program', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav'],
  ['16-byte v0 program', 'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P'],
  ['mixed case', 'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq'],
  ['zero padding of more than 4 bits', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf'],
  ['non-zero padding', 'tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j'],
  ['empty data section', 'bc1gmk9yu'],
];

describe('isValidBitcoinAddress', () => {
  it.each(VALID)('accepts the %s on any network', (_label, address) => {
    expect(isValidBitcoinAddress(address)).toBe(true);
  });

  it.each(VALID)('accepts the %s on its own network', (_label, address, network) => {
    expect(isValidBitcoinAddress(address, network)).toBe(true);
  });

  it.each(INVALID)('refuses an address that is %s', (_reason, address) => {
    expect(isValidBitcoinAddress(address)).toBe(false);
    expect(isValidBitcoinAddress(address, 'mainnet')).toBe(false);
    expect(isValidBitcoinAddress(address, 'testnet')).toBe(false);
    expect(isValidBitcoinAddress(address, 'regtest')).toBe(false);
  });

  it('refuses addresses of another network', () => {
    expect(isValidBitcoinAddress('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'mainnet')).toBe(false);
    expect(isValidBitcoinAddress('mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'mainnet')).toBe(false);
    expect(isValidBitcoinAddress('n3GNqMveyvaPvUbH469vDRadqpJMPc84JA', 'mainnet')).toBe(false);
    expect(isValidBitcoinAddress('2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf', 'mainnet')).toBe(false);
    expect(isValidBitcoinAddress('bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080', 'mainnet')).toBe(false);

    expect(isValidBitcoinAddress('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'testnet')).toBe(false);
    expect(isValidBitcoinAddress('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'testnet')).toBe(false);
    expect(isValidBitcoinAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'testnet')).toBe(false);
    expect(isValidBitcoinAddress('bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080', 'testnet')).toBe(false);

    expect(isValidBitcoinAddress('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'regtest')).toBe(false);
    expect(isValidBitcoinAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'regtest')).toBe(false);
    expect(isValidBitcoinAddress('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'regtest')).toBe(false);
  });

  it('accepts testnet legacy addresses on regtest, which shares their version bytes', () => {
    expect(isValidBitcoinAddress('mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'regtest')).toBe(true);
    expect(isValidBitcoinAddress('n3GNqMveyvaPvUbH469vDRadqpJMPc84JA', 'regtest')).toBe(true);
    expect(isValidBitcoinAddress('2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf', 'regtest')).toBe(true);
  });

  it('refuses values that are not strings at run time', () => {
    expect(isValidBitcoinAddress(null as unknown as string)).toBe(false);
    expect(isValidBitcoinAddress(undefined as unknown as string)).toBe(false);
    expect(isValidBitcoinAddress(42 as unknown as string, 'mainnet')).toBe(false);
  });
});

describe('bitcoinAddressNetwork', () => {
  it.each(VALID)('tells the network of the %s', (_label, address, network) => {
    expect(bitcoinAddressNetwork(address)).toBe(network);
  });

  it('reports shared testnet/regtest legacy addresses as testnet', () => {
    expect(bitcoinAddressNetwork('2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf')).toBe('testnet');
  });

  it.each(INVALID)('has no network for an address that is %s', (_reason, address) => {
    expect(bitcoinAddressNetwork(address)).toBeNull();
  });
});

describe('readBitcoinAddress refusals', () => {
  /** Each refusal with an address that has exactly that problem, and words its message must use. */
  const REFUSALS: ReadonlyArray<[AddressProblem, string, RegExp]> = [
    ['empty', '', /^Enter a bitcoin address\.$/],
    ['spaces', ' bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', /Remove the spaces/],
    ['spaces', '1A1zP1eP5QGefi2DMPTf TL5SLmv7DivfNa', /no spaces/],
    ['uri', 'bitcoin:1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa?amount=1', /without "bitcoin:"/],
    ['checksum', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb', /typo.*checksum/],
    ['checksum', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5', /typo.*checksum/],
    ['checksum', 'bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', /checksum/],
    ['characters', '1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfN0', /contains "0"/],
    ['characters', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3tb', /contains "b"/],
    ['mixed-case', 'bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', /capital and small letters/],
    ['length', 'BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', /wrong length/],
    ['kind', 'bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', /segwit version 2 .*bc1q, bc1p, 1 or 3/],
    [
      'kind',
      'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y',
      /segwit version 1 address with a 40-byte program/,
    ],
    [
      'taproot-key',
      'bc1pve739yap4uxjvfk0jrey69078u0gasm2nwvv483ec6zkzulgw9xqu4w9fd',
      /taproot address does not hold a valid public key/,
    ],
    ['not-an-address', 'LVuDpNCSSj6pQ7t9Pv6d6sUkLKoqDEVUnJ', /not a bitcoin address/],
    ['not-an-address', 'ltc1qg82tqdtkz9ct8zpgsw9j2w9d0kmqnsuj8u0hs9', /not a bitcoin address/],
    ['private-key', 'L5nJeqKmpHp4P7F8ZYyjwc5a7P4d8EabuGAzfGJk7yC1BJyzNaEd', /private key.*Never share it/],
  ];

  it.each(REFUSALS)('says what is wrong (%s) with %j', (problem, address, message) => {
    const reading = readBitcoinAddress(address);
    expect(reading).toMatchObject({ ok: false, problem });
    if (!reading.ok) expect(reading.message).toMatch(message);
    expect(bitcoinAddressProblem(address, 'mainnet')).toMatch(message);
  });

  it('names both networks when the address is of another one', () => {
    expect(bitcoinAddressProblem('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'mainnet')).toBe(
      'This is a testnet address. Use a mainnet address.',
    );
    expect(bitcoinAddressProblem('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'regtest')).toBe(
      'This is a mainnet address. Use a regtest address.',
    );
    expect(readBitcoinAddress('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'testnet')).toMatchObject({
      ok: false,
      problem: 'network',
    });
    expect(bitcoinAddressProblem('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', 'mainnet')).toBeNull();
  });

  it('hints at the prefixes of the network of the address', () => {
    const program = bech32m.toWords(new Uint8Array(16).fill(7));
    expect(bitcoinAddressProblem(bech32m.encode('tb', [2, ...program]), 'testnet')).toMatch(
      /segwit version 2 .*Use an address starting with tb1q, tb1p, m, n or 2\.$/,
    );
    expect(bitcoinAddressProblem(bech32m.encode('bcrt', [16, ...program]), 'regtest')).toMatch(
      /segwit version 16 .*bcrt1q, bcrt1p, m, n or 2\.$/,
    );
  });

  it('refuses a taproot address whose program is not a point on the curve, on every network', () => {
    // The x coordinate 5 has no point on secp256k1 (5³ + 7 = 132 is not a square modulo p).
    const program = new Uint8Array(32);
    program[31] = 5;
    for (const [prefix, network] of [
      ['bc', 'mainnet'],
      ['tb', 'testnet'],
      ['bcrt', 'regtest'],
    ] as const) {
      const address = bech32m.encode(prefix, [1, ...bech32m.toWords(program)]);
      expect(isValidBitcoinAddress(address), address).toBe(false);
      expect(isValidBitcoinAddress(address, network), address).toBe(false);
      expect(readBitcoinAddress(address, network)).toMatchObject({ ok: false, problem: 'taproot-key' });
      // The same address with a valid key (x = 1 is on the curve) is accepted.
      program[31] = 1;
      expect(isValidBitcoinAddress(bech32m.encode(prefix, [1, ...bech32m.toWords(program)]), network)).toBe(
        true,
      );
      program[31] = 5;
    }
  });

  it('tells the kind and output script of what it accepts', () => {
    expect(readBitcoinAddress('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toMatchObject({
      ok: true,
      address: { network: 'mainnet', kind: 'p2sh' },
    });
    expect(readBitcoinAddress('2N3vVYSK5XRgVSGWy21PnsRmBUywSQNdCsf', 'regtest')).toMatchObject({
      ok: true,
      address: { network: 'regtest', kind: 'p2sh' },
    });
    const taproot = readBitcoinAddress('bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0');
    expect(taproot.ok && hex.encode(taproot.address.outputScript)).toBe(
      '512079be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798',
    );
  });
});
