import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetKeptAcrossLogin,
  keepAcrossLogin,
  peekKeptAcrossLogin,
  returnPathOf,
  saveKeptAcrossLogin,
  sessionEndedUrl,
  sessionHasEnded,
} from './session-return';

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

describe('what a page keeps while its customer logs in again', () => {
  const asText = (value: unknown) => (typeof value === 'string' ? value : null);
  afterEach(() => sessionStorage.clear());

  it('is written only as the session ends, from what is open then, and stays until forgotten', () => {
    let typed = '250';
    const unregister = keepAcrossLogin('amount', () => typed);
    expect(peekKeptAcrossLogin('amount', asText)).toBeNull();
    typed = '1,250';
    saveKeptAcrossLogin();
    unregister();
    expect(peekKeptAcrossLogin('amount', asText)).toBe('1,250');
    expect(peekKeptAcrossLogin('amount', asText)).toBe('1,250');
    forgetKeptAcrossLogin('amount');
    expect(peekKeptAcrossLogin('amount', asText)).toBeNull();
  });

  it('keeps nothing for a page that closed, nor what no longer reads', () => {
    keepAcrossLogin('amount', () => '250')();
    saveKeptAcrossLogin();
    expect(peekKeptAcrossLogin('amount', asText)).toBeNull();
    sessionStorage.setItem('keptAcrossLogin:amount', '{not json');
    expect(peekKeptAcrossLogin('amount', asText)).toBeNull();
  });
});
