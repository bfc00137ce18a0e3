import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerCustomer } from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

/**
 * The route modules add their routes to the app's own context (route-modules.ts), so every request of
 * theirs is built by one Request class whatever route it reaches (with a scope per module, these calls
 * saw 18 classes, and Fastify's shared code slowed down for every route).
 */
let t: TestApp;
const requestClassByUrl = new Map<string, unknown>();
/** The own properties of each request once answered, by its address. */
const requestKeysByUrl = new Map<string, string[]>();

beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.addHook('onRequest', (request, _reply, done) => {
      requestClassByUrl.set(request.url, Object.getPrototypeOf(request));
      done();
    });
    app.addHook('onResponse', (request, _reply, done) => {
      requestKeysByUrl.set(request.url, Object.keys(request).sort());
      done();
    });
  });
});
afterAll(async () => t.close());

/** One read of each route module (signed out: the answer may be a refusal, but the route is found). */
const CALLS = [
  '/api/health/live',
  '/api/csrf',
  '/api/app-config',
  '/api/price',
  '/api/limits',
  '/api/referral/history',
  '/api/payout-addresses',
  '/api/user/settings',
  '/api/order/list',
  '/api/tax/w9',
  '/api/kyc/someone',
  '/api/admin/settings',
  '/api/admin/mfa',
  '/api/admin/orders',
  '/api/admin/kyc',
  '/api/admin/jobs/failed',
  '/api/admin/outbox',
  '/api/admin/cases',
  '/api/admin/payouts/due',
];

describe('route modules', () => {
  it('answer from the app’s own context, with one Request class for every route', async () => {
    for (const url of CALLS) {
      const response = await t.app.inject({ method: 'GET', url });
      // A route that is not there would be answered by the app's own 404, which the hook sees too.
      expect(response.statusCode, url).not.toBe(404);
    }
    expect([...requestClassByUrl.keys()].sort()).toEqual([...CALLS].sort());
    expect(new Set(requestClassByUrl.values()).size).toBe(1);
  });

  it('keep one shape whether the route signed its caller in or not (the signed-in user is declared)', async () => {
    const customer = await registerCustomer(t, 'route-modules-shape@example.com');
    const signedInUrl = `/api/order/list?userId=${customer.userId}`;
    const listed = await t.app.inject({ method: 'GET', url: signedInUrl, headers: customer.auth });
    expect(listed.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/price' })).statusCode).toBe(200);
    expect(requestKeysByUrl.get(signedInUrl)).toContain('signedIn');
    expect(requestKeysByUrl.get(signedInUrl)).toEqual(requestKeysByUrl.get('/api/price'));
  });
});
