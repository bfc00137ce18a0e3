import { describe, expect, it } from 'vitest';
import { Verifier } from 'bip322-js';
import { AppError } from '../http/errors';
import { verifyOwnershipProof } from './ownership-proof';

/** The test vectors of BIP-322 itself (bitcoin/bips, bip-0322.mediawiki, "Test vectors"). */
const P2WPKH = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l';
const P2TR = 'bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3';
const VECTORS = [
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
    // The same message signed again (another nonce): both are valid.
    address: P2WPKH,
    message: 'Hello World',
    signature:
      'AkgwRQIhAOzyynlqt93lOKJr+wmmxIens//zPzl9tqIOua93wO6MAiBi5n5EyAcPScOjf1lAqIUIQtr3zKNeavYabHyR8eGhowEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy',
  },
  {
    address: P2TR,
    message: 'Hello World',
    signature: 'AUHd69PrJQEv+oKTfZ8l+WROBHuy9HKrbFCJu7U1iK2iiEy1vMU5EfMtjc+VSHM7aU0SDbak5IUZRVno2P5mjSafAQ==',
  },
];

describe('BIP-322 verification (bip322-js)', () => {
  it('accepts every official test vector', () => {
    for (const vector of VECTORS) {
      expect(
        Verifier.verifySignature(vector.address, vector.message, vector.signature),
        vector.signature,
      ).toBe(true);
    }
  });

  it('refuses a vector for another message or another address', () => {
    const [empty, hello] = VECTORS;
    expect(Verifier.verifySignature(P2WPKH, 'Hello World', empty!.signature)).toBe(false);
    expect(Verifier.verifySignature(P2WPKH, '', hello!.signature)).toBe(false);
    expect(
      Verifier.verifySignature('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', 'Hello World', hello!.signature),
    ).toBe(false);
  });
});

describe('verifyOwnershipProof', () => {
  it('answers 400 naming the exact message for a signature of something else, or garbage', () => {
    for (const signature of [VECTORS[1]!.signature, 'not a signature', 'AAAA']) {
      let caught: unknown;
      try {
        verifyOwnershipProof({ userId: 'u-1', address: P2WPKH, signature });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(AppError);
      expect((caught as AppError).statusCode).toBe(400);
      expect((caught as AppError).message).toContain(`"OffZero address ownership: u-1 ${P2WPKH}"`);
    }
  });
});
