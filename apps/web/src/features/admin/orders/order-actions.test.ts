import { describe, expect, it } from 'vitest';
import { flagLabel, REFERENCE_PATTERN, TXID_PATTERN } from './order-actions';

describe('labels and patterns', () => {
  it('names the known flags and tidies unknown ones', () => {
    expect(flagLabel('vanished_tx')).toBe('Vanished transaction');
    expect(flagLabel('something_new')).toBe('Something new');
  });

  it('accepts a 64-hex txid and a reference as the server does', () => {
    expect(TXID_PATTERN.test('a'.repeat(64))).toBe(true);
    expect(TXID_PATTERN.test('g'.repeat(64))).toBe(false);
    expect(TXID_PATTERN.test('a'.repeat(63))).toBe(false);
    expect(REFERENCE_PATTERN.test('ZL-2026/11#42')).toBe(true);
    expect(REFERENCE_PATTERN.test('abc')).toBe(false);
    expect(REFERENCE_PATTERN.test('bad<ref>')).toBe(false);
  });
});
