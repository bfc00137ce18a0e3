import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { PRODUCTION_TEST_ENV } from '../test/production-env';

describe('demo outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('lists messages newest first, filtered by recipient, with their codes', async () => {
    for (const email of ['one@example.com', 'two@example.com']) {
      await t.request({
        method: 'POST',
        url: '/api/verification/email/otp',
        payload: { email, purpose: 'new account' },
      });
    }
    const all = (await t.app.inject({ method: 'GET', url: '/api/dev/outbox' })).json<{
      messages: { to: string }[];
    }>().messages;
    expect(all.map((m) => m.to)).toEqual(['two@example.com', 'one@example.com']);
    const one = (await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=ONE@example.com' })).json()
      .messages;
    expect(one).toHaveLength(1);
    expect(one[0]).toMatchObject({
      to: 'one@example.com',
      channel: 'email',
      subject: 'Verify your email for OffZero',
    });
    expect(one[0].code).toMatch(/^\d{6}$/);
    expect(one[0].text).toContain(one[0].code);
  });
});

describe('production mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(PRODUCTION_TEST_ENV);
  });
  afterAll(async () => t.close());

  it('has no demo helpers (404)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(404);
  });

  it('answers 503 with a retryable message when the e-mail provider is down, and leaks nothing', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/verification/email/otp',
      payload: { email: 'prod@example.com', purpose: 'new account' },
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      message: 'We could not send your code just now. Try again in a minute.',
      code: 'UNAVAILABLE',
    });
  });

  it('sends HSTS', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['strict-transport-security']).toContain('max-age=31536000');
  });
});
