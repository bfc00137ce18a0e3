import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/test-app';
import { registerCustomer } from '../test/accounts-helpers';

/** docs/design.md: the CSRF rule holds for every spelling of an /api path. */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, (app) => {
    app.post('/api/test/csrf-echo', { schema: { body: z.strictObject({ name: z.string() }) } }, async () => ({
      message: 'ok',
    }));
  });
});
afterAll(async () => t.close());

describe('CSRF on the decoded path', () => {
  it('refuses a percent-encoded /api path without the token', async () => {
    const customer = await registerCustomer(t, 'csrf-encoded@example.com');
    for (const url of ['/%61pi/user/profile', '/%61%70%69/user/profile', '/api/user/%70rofile']) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        headers: customer.auth,
        payload: { userId: customer.userId, firstName: 'Forged' },
      });
      expect(response.statusCode, url).not.toBe(200);
      if (response.statusCode !== 404) {
        expect(response.statusCode, url).toBe(403);
        expect(response.json().code).toBe('CSRF_INVALID');
      }
    }
    const encoded = await t.app.inject({
      method: 'POST',
      url: '/%61pi/test/csrf-echo',
      payload: { name: 'a' },
    });
    expect(encoded.statusCode).toBe(403);
    expect(encoded.json()).toMatchObject({ code: 'CSRF_INVALID' });
  });

  it('still accepts the encoded path with a valid token', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/%61pi/test/csrf-echo',
      payload: { name: 'a' },
    });
    expect(response.statusCode).toBe(200);
  });

  it('never lets other spellings (upper case, doubled slashes) through without the token', async () => {
    for (const url of [
      '/API/test/csrf-echo',
      '//api/test/csrf-echo',
      '/api//test/csrf-echo',
      '/Api/test/csrf-echo',
    ]) {
      const response = await t.app.inject({ method: 'POST', url, payload: { name: 'a' } });
      // Fastify routes these case- and slash-sensitively (404); were that to change, CSRF still applies.
      expect([403, 404], url).toContain(response.statusCode);
    }
  });

  it('answers malformed percent-encoding with 400, never 500', async () => {
    for (const url of ['/%E0%A4%A/test/csrf-echo', '/api/test/csrf-echo%', '/%zzpi/test/csrf-echo']) {
      const response = await t.app.inject({ method: 'POST', url, payload: { name: 'a' } });
      expect([400, 404], url).toContain(response.statusCode);
    }
  });
});
