import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { base64, createBase58check, hex, utf8 } from '@scure/base';
import { WIF } from '@scure/btc-signer';
import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors';
import { signBip322 } from '../test/bip322-signer';
import { bip322MessageHash, toSpendTransaction, txidOf, verifyBip322 } from './bip322';
import { verifyOwnershipProof } from './ownership-proof';
import vectors from './vectors/bip322.json';
import { readBitcoinAddress } from '@offzero/shared/bitcoin/address';

/*
 * The official vectors of BIP-322 version 2.0.0 (bitcoin/bips, bip-0322/*.json, kept in
 * ./vectors/bip322.json with their source), and the unprefixed vectors of the BIP's earlier text.
 */
const { basic, generated } = vectors;
const signed = [...basic.simple, ...generated.simple, ...generated.full].flatMap((vector) =>
  vector.bip322_signatures.map((signature) => ({ ...vector, signature })),
);
/** BIP-322 leaves time-locked scripts to validators with a script interpreter: inconclusive here. */
const TIME_LOCKED = new Set(['p2tr-time-lock', 'p2wsh-time-lock']);

/** The test vectors of BIP-322's text before the prefixes (simple signatures, written unprefixed). */
const P2WPKH = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l';
const P2TR = 'bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3';
const UNPREFIXED = [
  {
    address: P2WPKH,
    message: '',
    signature:
      'AkcwRAIgM2gBAQqvZX15ZiysmKmQpDrG83avLIT492QBzLnQIxYCIBaTpOaD20qRlEylyxFSeEA2ba9YOixpX8z46TSDtS40ASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
  },
  {
    address: P2WPKH,
    message: 'Hello World',
    signature:
      'AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI=',
  },
  {
    address: P2TR,
    message: 'Hello World',
    signature: 'AUHd69PrJQEv+oKTfZ8l+WROBHuy9HKrbFCJu7U1iK2iiEy1vMU5EfMtjc+VSHM7aU0SDbak5IUZRVno2P5mjSafAQ==',
  },
];

describe('BIP-322 official vectors (version 2.0.0)', () => {
  it.each(basic.tx_hashes)('hashes $message and builds to_spend as the BIP does', (vector) => {
    const reading = readBitcoinAddress(vector.address);
    if (!reading.ok) throw new Error(reading.message);
    expect(hex.encode(bip322MessageHash(vector.message))).toBe(vector.message_hash);
    expect(hex.encode(txidOf(toSpendTransaction(vector.message, reading.address.outputScript)))).toBe(
      vector.to_spend_tx_hash,
    );
  });

  it.each(signed)('accepts the $type signature $signature', (vector) => {
    const verdict = verifyBip322(vector.address, vector.message, vector.signature);
    if (TIME_LOCKED.has(vector.type)) expect(verdict.result).toBe('inconclusive');
    else expect(verdict).toEqual({ result: 'valid' });
  });

  it('covers the simple and full forms of every script type but time locks', () => {
    const valid = signed.filter(
      (vector) => verifyBip322(vector.address, vector.message, vector.signature).result === 'valid',
    );
    expect(new Set(valid.map((vector) => `${vector.signature.slice(0, 3)} ${vector.type}`))).toEqual(
      new Set([
        'smp p2wpkh',
        'smp p2tr',
        'smp p2wsh-multisig-2of2',
        'smp p2wsh-multisig-3of3',
        'ful p2pkh',
        'ful p2wpkh',
        'ful p2tr',
        'ful p2sh-p2wpkh',
        'ful p2wsh-multisig-2of2',
        'ful p2wsh-multisig-3of3',
        'ful p2sh-p2wsh-multisig-2of2',
        'ful p2sh-multisig-2of2',
        // The BIP's "No prefix fallback" vector: an unprefixed signature reads as simple.
        'AUC p2tr',
      ]),
    );
  });

  it.each([...basic.error, ...generated.error])('refuses: $description', (vector) => {
    expect(verifyBip322(vector.address, vector.message, vector.signature).result).toBe('invalid');
  });

  it.each(generated.proof_of_funds)('answers inconclusive for the $type proof of funds', (vector) => {
    expect(verifyBip322(vector.address, vector.message, vector.bip322_signatures[0]!)).toMatchObject({
      result: 'inconclusive',
    });
  });
});

describe('the encodings written before the prefix', () => {
  it.each(UNPREFIXED)('accepts the unprefixed simple signature of $address over "$message"', (vector) => {
    expect(verifyBip322(vector.address, vector.message, vector.signature)).toEqual({ result: 'valid' });
  });

  it('refuses an unprefixed vector for another message or another address', () => {
    const [empty, hello] = UNPREFIXED;
    expect(verifyBip322(P2WPKH, 'Hello World', empty!.signature).result).toBe('invalid');
    expect(verifyBip322(P2WPKH, '', hello!.signature).result).toBe('invalid');
    expect(
      verifyBip322('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'Hello World', hello!.signature).result,
    ).toBe('invalid');
  });

  it('accepts an unprefixed full signature, and a prefixed one made by an independent signer', () => {
    const wif = basic.simple[0]!.private_keys[0]!;
    const full = signBip322(wif, P2WPKH, 'Hello World', 'full');
    expect(verifyBip322(P2WPKH, 'Hello World', full)).toEqual({ result: 'valid' });
    expect(verifyBip322(P2WPKH, 'Hello World', full.slice(3))).toEqual({ result: 'valid' });
    expect(verifyBip322(P2WPKH, 'Hello World!', full).result).toBe('invalid');
  });

  it('accepts the legacy "signmessage" form for a P2PKH address only', () => {
    const wif = 'L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k';
    const privateKey = WIF().decode(wif);
    const publicKey = secp256k1.getPublicKey(privateKey, true);
    const keyHash = ripemd160(sha256(publicKey));
    const p2pkh = createBase58check(sha256).encode(Uint8Array.of(0x00, ...keyHash));
    const message = 'OffZero address ownership: u-1 ' + p2pkh;
    const magic = utf8.decode('\x18Bitcoin Signed Message:\n');
    const body = utf8.decode(message);
    const digest = sha256(sha256(Uint8Array.of(...magic, body.length, ...body)));
    const recovered = secp256k1.sign(digest, privateKey, { prehash: false, format: 'recovered' });
    // Compact form: header 31 + recovery id (compressed key), then r and s.
    const signature = base64.encode(Uint8Array.of(31 + recovered[0]!, ...recovered.subarray(1)));

    expect(verifyBip322(p2pkh, message, signature)).toEqual({ result: 'valid' });
    expect(verifyBip322(p2pkh, `${message}.`, signature).result).toBe('invalid');
    // The same key's P2WPKH address: the legacy form is for P2PKH only.
    expect(verifyBip322(P2WPKH, message, signature).result).toBe('invalid');
  });
});

describe('verifyOwnershipProof', () => {
  function refusal(proof: { userId: string; address: string; signature: string }): AppError {
    try {
      verifyOwnershipProof(proof);
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return error as AppError;
    }
    throw new Error('the proof was accepted');
  }

  it('accepts a signature of the exact message in the current encoding', () => {
    const wif = basic.simple[0]!.private_keys[0]!;
    const message = `OffZero address ownership: u-1 ${P2WPKH}`;
    expect(() =>
      verifyOwnershipProof({ userId: 'u-1', address: P2WPKH, signature: signBip322(wif, P2WPKH, message) }),
    ).not.toThrow();
  });

  it('answers 400 naming the exact message for a signature of something else, or garbage', () => {
    for (const signature of [UNPREFIXED[1]!.signature, 'not a signature', 'AAAA', 'smpAA==']) {
      const error = refusal({ userId: 'u-1', address: P2WPKH, signature });
      expect(error.statusCode).toBe(400);
      expect(error.message).toContain(`"OffZero address ownership: u-1 ${P2WPKH}"`);
    }
  });

  it('answers 400 saying a proof of funds cannot be checked here', () => {
    const vector = generated.proof_of_funds[0]!;
    const error = refusal({
      userId: 'u-1',
      address: vector.address,
      signature: vector.bip322_signatures[0]!,
    });
    expect(error.statusCode).toBe(400);
    expect(error.message).toMatch(/^This signature cannot be checked here: proofs of funds/);
  });
});
