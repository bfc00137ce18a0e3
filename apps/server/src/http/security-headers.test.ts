import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';

/** What every answer carries, page or data. */
const API_HEADERS = [
  'content-security-policy',
  'cross-origin-resource-policy',
  'x-content-type-options',
  'x-frame-options',
];
/** What only a page needs: how a browser treats a document it renders. */
const PAGE_ONLY_HEADERS = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];
const SECURITY_HEADERS = [...API_HEADERS, ...PAGE_ONLY_HEADERS];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.get('/api/test/own-policy', async (_request, reply) => {
      void reply.header('content-security-policy', "default-src 'none'");
      return { ok: true };
    });
  });
});
afterAll(async () => t.close());

function securityHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(SECURITY_HEADERS.map((name) => [name, headers[name]]));
}

describe('security headers', () => {
  it('are the same on every API answer: the price, a missing route and a refused call', async () => {
    const price = await t.app.inject({ method: 'GET', url: '/api/price' });
    expect(price.statusCode).toBe(200);
    const expected = securityHeaders(price.headers);
    for (const name of API_HEADERS) expect(expected[name], name).toEqual(expect.any(String));
    // Headers about rendering a document are left off data (OWASP's REST guidance).
    for (const name of PAGE_ONLY_HEADERS) expect(expected[name], name).toBeUndefined();
    expect(expected['x-frame-options']).toBe('DENY');
    expect(expected['cross-origin-resource-policy']).toBe('same-origin');
    expect(expected['x-content-type-options']).toBe('nosniff');
    // Data, never a document: nothing may load from an API answer, and no page may frame it.
    expect(expected['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");

    const missing = await t.app.inject({ method: 'GET', url: '/api/no-such-route' });
    const refused = await t.app.inject({ method: 'POST', url: '/api/user/login-otp/send', payload: {} });
    const query = await t.app.inject({ method: 'GET', url: '/api/price?currency=usd' });
    // Another spelling of the same API path (the router decodes it) is still an API answer.
    const spelled = await t.app.inject({ method: 'GET', url: '/%61pi/price' });
    expect(missing.statusCode).toBe(404);
    expect(refused.statusCode).toBe(403);
    for (const response of [missing, refused, query, spelled]) {
      expect(securityHeaders(response.headers)).toEqual(expected);
    }
  });

  it('give a web page and the API’s documentation the policy that lets them run, and the headers of a document', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/login' });
    const lookalike = await t.app.inject({ method: 'GET', url: '/apiary' });
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    const docsWithQuery = await t.app.inject({ method: 'GET', url: '/api/docs?tag=orders' });
    // Not the documentation: an API path that merely starts with the same letters.
    const docsLookalike = await t.app.inject({ method: 'GET', url: '/api/docsx' });
    const pagePolicy = String(page.headers['content-security-policy']);
    expect(pagePolicy).toContain("script-src 'self' https://accounts.google.com");
    expect(pagePolicy).toContain("frame-ancestors 'none'");
    expect(pagePolicy).toContain("object-src 'none'");
    const pageHeaders = securityHeaders(page.headers);
    for (const name of SECURITY_HEADERS) expect(pageHeaders[name], name).toEqual(expect.any(String));
    expect(pageHeaders).toMatchObject({
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cross-origin-opener-policy': 'same-origin-allow-popups',
      'x-content-type-options': 'nosniff',
    });
    expect(securityHeaders(lookalike.headers)).toEqual(pageHeaders);
    // The API's documentation is a page of its own, with scripts (Swagger UI).
    expect(securityHeaders(docs.headers)).toEqual(pageHeaders);
    expect(securityHeaders(docsWithQuery.headers)).toEqual(pageHeaders);
    expect(docsLookalike.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });

  it('give way to a stricter header a route sets itself', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/own-policy' });
    expect(response.headers['content-security-policy']).toBe("default-src 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
  });
});
