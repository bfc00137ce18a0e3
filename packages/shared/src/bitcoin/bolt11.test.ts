import { bech32, hex } from '@scure/base';
import { decode as independentDecode } from 'light-bolt11-decoder';
import { describe, expect, it } from 'vitest';
import { Bolt11Error, bolt11ExpiresAt, decodeBolt11, encodeBolt11, nodePublicKey } from './bolt11';
import vectors from './vectors/bolt11.json';

/*
 * The official BOLT #11 examples (valid and invalid), kept in ./vectors/bolt11.json with their source,
 * and invoices this module writes read back by an independent decoder (light-bolt11-decoder).
 */

type Vector = (typeof vectors.valid)[number] & {
  description?: string;
  descriptionHash?: string;
  paymentSecret?: string;
  minFinalCltvExpiry?: number;
};

describe('BOLT #11 official examples', () => {
  it.each(vectors.valid as Vector[])('reads "$name"', (vector) => {
    const invoice = decodeBolt11(vector.invoice);
    expect(invoice.network).toBe(vector.network);
    expect(invoice.amountMsat).toBe(vector.amountMsat === null ? null : BigInt(vector.amountMsat));
    expect(invoice.timestamp).toBe(vector.timestamp);
    expect(invoice.paymentHash).toBe(vector.paymentHash);
    expect(invoice.description).toBe(vector.description ?? null);
    expect(invoice.descriptionHash).toBe(vector.descriptionHash ?? null);
    expect(invoice.paymentSecret).toBe(vector.paymentSecret ?? null);
    expect(invoice.expirySeconds).toBe(vector.expirySeconds);
    if (vector.minFinalCltvExpiry !== undefined)
      expect(invoice.minFinalCltvExpiry).toBe(vector.minFinalCltvExpiry);
    expect(invoice.payee).toBe(vectors.payee);
  });

  it.each(vectors.invalid)('refuses "$name"', ({ invoice }) => {
    expect(() => decodeBolt11(invoice)).toThrow(Bolt11Error);
  });

  it('the examples key is the payee the examples name', () => {
    expect(nodePublicKey(hex.decode(vectors.privateKey))).toBe(vectors.payee);
  });

  it('an example altered after signing no longer names its payee', () => {
    const original = vectors.valid[1]!.invoice;
    // Same fields, but the amount raised from 2500u to 2501u: the checksum is recomputed, the signature is not,
    // so the key it recovers is some other one, never the payee's.
    const forged = reencodeWithHrp(original, 'lnbc2501u');
    expect(decodeBolt11(forged).payee).not.toBe(vectors.payee);
  });
});

function reencodeWithHrp(invoice: string, hrp: string): string {
  const { words } = bech32.decode(invoice as `${string}1${string}`, false);
  return bech32.encode(hrp, words, false);
}

describe('writing invoices', () => {
  const key = hex.decode('1111111111111111111111111111111111111111111111111111111111111111');
  const draft = {
    network: 'regtest' as const,
    amountMsat: 123_456_000n,
    timestamp: 1_800_000_000,
    expirySeconds: 900,
    paymentHash: 'ab'.repeat(32),
    paymentSecret: 'cd'.repeat(32),
    description: 'OffZero order #1a2b3c4d',
  };

  it('reads back what it writes, signed by the node key', () => {
    const written = encodeBolt11(draft, key);
    expect(written.startsWith('lnbcrt1234560n1')).toBe(true);
    const read = decodeBolt11(written);
    expect(read).toMatchObject({
      network: 'regtest',
      amountMsat: 123_456_000n,
      timestamp: 1_800_000_000,
      expirySeconds: 900,
      paymentHash: draft.paymentHash,
      paymentSecret: draft.paymentSecret,
      description: draft.description,
      payee: nodePublicKey(key),
    });
    expect(bolt11ExpiresAt(read)).toBe(1_800_000_900);
  });

  it.each([
    ['mainnet', 'bc', 'lnbc'],
    ['testnet', 'tb', 'lntb'],
    ['regtest', 'bcrt', 'lnbcrt'],
  ] as const)('an independent decoder reads a %s invoice', (network, bech32Prefix, hrpStart) => {
    const written = encodeBolt11({ ...draft, network, amountMsat: 5_000_000n }, key);
    expect(written.startsWith(hrpStart)).toBe(true);
    const sections = independentDecode(written).sections;
    const find = (name: string) =>
      sections.find((section) => section.name === name) as { value?: unknown } | undefined;
    expect((find('coin_network')?.value as { bech32: string }).bech32).toBe(bech32Prefix);
    expect(find('amount')?.value).toBe('5000000');
    expect(find('payment_hash')?.value).toBe(draft.paymentHash);
    expect(find('payment_secret')?.value).toBe(draft.paymentSecret);
    expect(find('description')?.value).toBe(draft.description);
    expect(find('timestamp')?.value).toBe(draft.timestamp);
    expect(independentDecode(written).expiry).toBe(900);
    const features = find('feature_bits')?.value as {
      var_onion_optin: string;
      payment_secret: string;
      basic_mpp: string;
    };
    expect(features.var_onion_optin).toBe('required');
    expect(features.payment_secret).toBe('required');
    expect(features.basic_mpp).toBe('supported');
  });

  it('writes an invoice without an amount, and one with a description hash', () => {
    const noAmount = decodeBolt11(encodeBolt11({ ...draft, amountMsat: null }, key));
    expect(noAmount.amountMsat).toBeNull();
    const { description: _unused, ...withoutDescription } = draft;
    const hashed = decodeBolt11(
      encodeBolt11({ ...withoutDescription, descriptionHash: 'ef'.repeat(32) }, key),
    );
    expect(hashed.descriptionHash).toBe('ef'.repeat(32));
    expect(hashed.description).toBeNull();
  });

  it('writes amounts of any millisatoshi', () => {
    for (const msat of [1n, 10n, 999n, 1000n, 100_000n, 2_100_000_000_000_000n]) {
      expect(decodeBolt11(encodeBolt11({ ...draft, amountMsat: msat }, key)).amountMsat).toBe(msat);
    }
  });
});
