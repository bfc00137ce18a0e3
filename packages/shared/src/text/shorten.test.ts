import { describe, expect, it } from 'vitest';
import { SHORTEN, shortenText } from './shorten';

describe('SHORTEN', () => {
  it('keeps the lengths the specification gives for each kind of value', () => {
    expect(SHORTEN).toEqual({ address: 8, id: 6, referralLink: 12 });
  });
});

describe('shortenText', () => {
  it('keeps the head and tail of a bitcoin address', () => {
    expect(shortenText('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4', SHORTEN.address)).toBe(
      'bc1qw508...7kv8f3t4',
    );
  });

  it('shortens an order id and a referral link', () => {
    expect(shortenText('65f1c2a9b7e4d3f0a1b2c3d4', SHORTEN.id)).toBe('65f1c2...b2c3d4');
    expect(shortenText('https://offzero.example/register/?ref=AbCdEfGh12345678', SHORTEN.referralLink)).toBe(
      'https://offz...EfGh12345678',
    );
  });

  it('leaves text of exactly 2·keep + 3 characters alone, and shortens one character more', () => {
    expect(shortenText('abcdefghijklmno', 6)).toBe('abcdefghijklmno');
    expect(shortenText('abcdefghijklmnop', 6)).toBe('abcdef...klmnop');
  });

  it('leaves short and empty text alone', () => {
    expect(shortenText('', 6)).toBe('');
    expect(shortenText('abc', 6)).toBe('abc');
    expect(shortenText('abc', 0)).toBe('abc');
  });

  it('keeps only the dots when asked to keep nothing', () => {
    expect(shortenText('abcd', 0)).toBe('...');
  });

  it('keeps a single character at each end', () => {
    expect(shortenText('abcde', 1)).toBe('abcde');
    expect(shortenText('abcdef', 1)).toBe('a...f');
  });

  it('never cuts an emoji in half', () => {
    expect(shortenText('😀😀😀bcdefg😀', 2)).toBe('😀😀...g😀');
    expect(shortenText('😀😀😀😀😀😀😀', 2)).toBe('😀😀😀😀😀😀😀');
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses to keep %s characters', (keep) => {
    expect(() => shortenText('abcdefghij', keep)).toThrow(RangeError);
  });
});
