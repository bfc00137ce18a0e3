import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../test/test-app';

/** The HTTP rules every endpoint shares: JSON errors, limits, content types, CSRF and headers. */
let t: TestApp;

beforeAll(async () => {
  // A throwaway state-changing route to exercise the shared rules without depending on a feature.
  t = await createTestApp({}, (app) => {
    app.post(
      '/api/test/echo',
      { schema: { body: z.strictObject({ name: z.string().min(1) }) } },
      async (request) => ({ message: 'ok', body: request.body }),
    );
    app.get('/api/test/boom', async () => {
      throw new Error('database password is hunter2');
    });
  });
});
afterAll(async () => t.close());

describe('HTTP contract', () => {
  it('answers unknown API paths with a JSON 404 naming the path', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/no-such-thing?secret=1' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.json()).toEqual({
      message: 'No such API endpoint: GET /api/no-such-thing',
      code: 'NOT_FOUND',
    });
  });

  it('refuses a state-changing request without the CSRF header (403)', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/test/echo', payload: { name: 'a' } });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/security token/);
  });

  it('refuses a CSRF header that does not match the cookie (403)', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'a' },
      headers: { 'x-csrf-token': 'forged-token-value' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('accepts a request with the CSRF token and cookie from GET /api/csrf', async () => {
    const response = await t.request({ method: 'POST', url: '/api/test/echo', payload: { name: 'Ada' } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'ok', body: { name: 'Ada' } });
  });

  it('hands out the CSRF token as an HttpOnly, SameSite=Strict cookie', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/csrf' });
    const cookie = response.cookies.find((c) => c.name === 'offzero_csrf');
    expect(response.json()._csrf).toBe(cookie?.value);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  });

  it('answers malformed JSON with 400 and a readable message', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The request body is not valid JSON. Check the syntax and send it again.',
      code: 'INVALID_JSON',
    });
  });

  it('answers a body over 100 kB with 413', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(110 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toMatch(/too large/);
  });

  it('answers a wrong content type with 415', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'text/plain' },
      payload: 'name=Ada',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().message).toMatch(/application\/json/);
  });

  it('refuses unknown fields and wrong types with 400 and field errors', async () => {
    const extra = await t.request({
      method: 'POST',
      url: '/api/test/echo',
      payload: { name: 'a', role: 'admin' },
    });
    expect(extra.statusCode).toBe(400);
    const wrongType = await t.request({ method: 'POST', url: '/api/test/echo', payload: { name: 42 } });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().errors).toHaveProperty('name');
  });

  it('hides the details of an unexpected failure behind a 500 message', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('at ');
    expect(response.json()).toEqual({
      message: 'Something went wrong on our side. Please try again in a moment.',
      code: 'INTERNAL',
    });
  });

  it('sends security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('reports the database in GET /api/health', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok', database: { up: true }, mode: 'demo' });
  });
});
