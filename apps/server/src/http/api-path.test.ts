import { describe, expect, it } from 'vitest';
import { isUnderApi } from './api-path';

describe('isUnderApi', () => {
  it.each([
    // Decoded and normalised before comparing.
    ['/%61pi/user/profile', true],
    ['//api/user', true],
    ['/API/user?x=1', true],
    ['/api', true],
    ['/apiary', false],
    ['/assets/app.js', false],
    // The API's own spelling, read at once; only its path counts.
    ['/api/price', true],
    ['/api/order/list?userId=u-1&limit=5', true],
    // A percent sign in the query is the query's business, not the path's.
    ['/api/price?note=100%', true],
    ['/assets/api/price', false],
    ['/apiary?next=/api/', false],
  ])('reads %s as under /api: %s', (url, expected) => {
    expect(isUnderApi(url)).toBe(expected);
  });

  it('refuses malformed percent-encoding with a message a person can act on', () => {
    expect(() => isUnderApi('/api/%E0%A4%A')).toThrow(/not valid/);
    expect(() => isUnderApi('/api/%E0%A4%A?page=1')).toThrow(/not valid/);
  });
});
