import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { replyHeaderStore } from './security-headers';

const SECURITY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

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
  it('are the same on every answer: the price, a missing route, a refused call and a web page', async () => {
    const price = await t.app.inject({ method: 'GET', url: '/api/price' });
    expect(price.statusCode).toBe(200);
    const expected = securityHeaders(price.headers);
    for (const name of SECURITY_HEADERS) expect(expected[name], name).toEqual(expect.any(String));
    expect(expected['x-frame-options']).toBe('SAMEORIGIN');
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'");

    const missing = await t.app.inject({ method: 'GET', url: '/api/no-such-route' });
    const refused = await t.app.inject({ method: 'POST', url: '/api/user/login-otp/send', payload: {} });
    const page = await t.app.inject({ method: 'GET', url: '/login' });
    expect(missing.statusCode).toBe(404);
    expect(refused.statusCode).toBe(403);
    for (const response of [missing, refused, page]) {
      expect(securityHeaders(response.headers)).toEqual(expected);
    }
  });

  it('give way to a stricter header a route sets itself', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/own-policy' });
    expect(response.headers['content-security-policy']).toBe("default-src 'none'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('are copied in one go into where this Fastify keeps a reply’s headers', async () => {
    // null would mean a Fastify upgrade moved them: the headers still go out, one at a time.
    expect(await replyHeaderStore()).toEqual(expect.any(Function));
  });
});
