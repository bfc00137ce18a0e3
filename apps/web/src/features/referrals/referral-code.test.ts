import { afterEach, describe, expect, it, vi } from 'vitest';
import { REFERRAL_CODE_PATTERN } from '@offzero/shared/api/user-settings';
import { generateReferralCode, referralLink } from './referral-code';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The specification's 64-character URL-safe alphabet, written out here rather than read from the code. */
const URL_SAFE = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];

/** A random source that hands out the given bytes, in order, and then starts over. */
function bytesFrom(values: number[]): Pick<Crypto, 'getRandomValues'> {
  let next = 0;
  return {
    getRandomValues: <T extends ArrayBufferView | null>(array: T) => {
      const bytes = array as unknown as Uint8Array;
      for (let i = 0; i < bytes.length; i += 1) bytes[i] = values[next++ % values.length]!;
      return array;
    },
  };
}

describe('generateReferralCode', () => {
  it('makes 16 characters, using every character of the URL-safe alphabet and nothing else', () => {
    const seen = new Set<string>();
    const random = bytesFrom(Array.from({ length: 256 }, (_, byte) => byte));
    for (let i = 0; i < 16; i += 1) {
      const code = generateReferralCode(random);
      expect(code).toHaveLength(16);
      for (const character of code) seen.add(character);
    }
    expect([...seen].sort()).toEqual([...URL_SAFE].sort());
  });

  it('picks each of the 64 characters from exactly 4 of the 256 byte values', () => {
    const counts = new Map<string, number>();
    const random = bytesFrom(Array.from({ length: 256 }, (_, byte) => byte));
    for (let i = 0; i < 16; i += 1) {
      for (const character of generateReferralCode(random)) {
        counts.set(character, (counts.get(character) ?? 0) + 1);
      }
    }
    expect(counts.size).toBe(64);
    expect([...counts.values()].every((count) => count === 4)).toBe(true);
  });

  it('makes codes the server accepts, from all 16 random bytes of crypto.getRandomValues', () => {
    const spy = vi.spyOn(crypto, 'getRandomValues');
    const code = generateReferralCode();
    expect(spy).toHaveBeenCalledTimes(1);
    expect((spy.mock.calls[0]?.[0] as Uint8Array).length).toBe(16);
    expect(code).toMatch(REFERRAL_CODE_PATTERN);
    // Each byte decides its own character: changing one byte changes that character only.
    const fixed = Array.from({ length: 16 }, (_, i) => i);
    const one = generateReferralCode(bytesFrom(fixed));
    const other = generateReferralCode(bytesFrom(fixed.map((byte, i) => (i === 7 ? byte + 1 : byte))));
    expect([...one].filter((character, i) => character !== other[i])).toHaveLength(1);
  });

  it('makes a new code each time, different even when case is ignored, so a taken code is followed by another', () => {
    const codes = Array.from({ length: 200 }, () => generateReferralCode());
    expect(new Set(codes.map((code) => code.toLowerCase())).size).toBe(200);
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
