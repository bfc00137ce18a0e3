import { describe, expect, it } from 'vitest';
import { returnPathOf, sessionEndedUrl, sessionHasEnded } from './session-return';

describe('the way back after a session ended', () => {
  it('keeps the page the customer was on, and brings them back to it after logging in', () => {
    const url = sessionEndedUrl({ pathname: '/orders', search: '?status=pending' });
    expect(url).toBe('/login?session=ended&next=%2Forders%3Fstatus%3Dpending');
    const search = url.slice(url.indexOf('?'));
    expect(sessionHasEnded(search)).toBe(true);
    expect(returnPathOf(search)).toBe('/orders?status=pending');
  });

  it('follows no path off this site', () => {
    for (const next of ['//evil.example/x', 'https://evil.example', '/\\\\evil.example', 'dashboard']) {
      expect(returnPathOf(`?next=${encodeURIComponent(next)}`), next).toBeNull();
    }
    expect(returnPathOf('')).toBeNull();
    expect(sessionHasEnded('?next=%2Forders')).toBe(false);
  });
});
