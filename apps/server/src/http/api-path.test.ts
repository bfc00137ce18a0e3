import { describe, expect, it } from 'vitest';
import { isUnderApi } from './api-path';

describe('isUnderApi', () => {
  it('decodes and normalises before comparing', () => {
    expect(isUnderApi('/%61pi/user/profile')).toBe(true);
    expect(isUnderApi('//api/user')).toBe(true);
    expect(isUnderApi('/API/user?x=1')).toBe(true);
    expect(isUnderApi('/api')).toBe(true);
    expect(isUnderApi('/apiary')).toBe(false);
    expect(isUnderApi('/assets/app.js')).toBe(false);
  });

  it('refuses malformed percent-encoding with a message a person can act on', () => {
    expect(() => isUnderApi('/api/%E0%A4%A')).toThrow(/not valid/);
  });
});
