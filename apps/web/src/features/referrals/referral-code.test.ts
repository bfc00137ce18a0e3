import { afterEach, describe, expect, it, vi } from 'vitest';
import { REFERRAL_CODE_PATTERN } from '@offzero/shared/api/user-settings';
import {
  generateReferralCode,
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
  referralLink,
} from './referral-code';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('generateReferralCode', () => {
  it('makes 16 characters of the 64-character URL-safe alphabet', () => {
    expect(REFERRAL_CODE_ALPHABET).toHaveLength(64);
    expect(new Set(REFERRAL_CODE_ALPHABET).size).toBe(64);
    expect(REFERRAL_CODE_ALPHABET).toMatch(/^[A-Za-z0-9_-]+$/);
    for (let i = 0; i < 200; i += 1) {
      const code = generateReferralCode();
      expect(code).toHaveLength(REFERRAL_CODE_LENGTH);
      expect(code).toMatch(/^[A-Za-z0-9_-]{16}$/);
      expect(code).toMatch(REFERRAL_CODE_PATTERN);
    }
  });

  it('draws its randomness from crypto.getRandomValues', () => {
    const spy = vi.spyOn(crypto, 'getRandomValues');
    generateReferralCode();
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]?.[0]).toBeInstanceOf(Uint8Array);
    expect((spy.mock.calls[0]?.[0] as Uint8Array).length).toBe(16);
  });

  it('maps every byte onto the alphabet evenly (each character from exactly 4 of the 256 bytes)', () => {
    const counts = new Map<string, number>();
    for (let start = 0; start < 256; start += 16) {
      const code = generateReferralCode({
        getRandomValues: <T extends ArrayBufferView | null>(array: T) => {
          const bytes = array as unknown as Uint8Array;
          for (let i = 0; i < bytes.length; i += 1) bytes[i] = start + i;
          return array;
        },
      });
      for (const character of code) counts.set(character, (counts.get(character) ?? 0) + 1);
    }
    expect(counts.size).toBe(64);
    expect([...counts.values()].every((count) => count === 4)).toBe(true);
  });

  it('gives different codes each time', () => {
    const codes = new Set(Array.from({ length: 100 }, () => generateReferralCode()));
    expect(codes.size).toBe(100);
  });
});

describe('referralLink', () => {
  it('is the site address plus /register/?ref={code}', () => {
    expect(referralLink('AbC-_123xyzXYZ00', 'https://offzero.com')).toBe(
      'https://offzero.com/register/?ref=AbC-_123xyzXYZ00',
    );
    expect(referralLink('AbC-_123xyzXYZ00')).toBe(`${window.location.origin}/register/?ref=AbC-_123xyzXYZ00`);
  });
});
