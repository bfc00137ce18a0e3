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
    expect(() => isUnderApi('/api/%E0%A4%A?page=1')).toThrow(/not valid/);
  });

  it('reads the API’s own spelling at once, and only its path', () => {
    expect(isUnderApi('/api/price')).toBe(true);
    expect(isUnderApi('/api/order/list?userId=u-1&limit=5')).toBe(true);
    // A percent sign in the query is the query's business, not the path's.
    expect(isUnderApi('/api/price?note=100%')).toBe(true);
    expect(isUnderApi('/assets/api/price')).toBe(false);
    expect(isUnderApi('/apiary?next=/api/')).toBe(false);
  });
});
