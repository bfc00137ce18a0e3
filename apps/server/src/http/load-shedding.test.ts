import { describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../test/test-app';
import { expectRefusalPage } from '../test/refusal-page-assertions';
import { OVERLOADED_MESSAGE } from './load-shedding';

describe('load shedding', () => {
  it('answers 503 UNAVAILABLE with Retry-After when over a limit, but never to health checks or metrics', async () => {
    // Any heap is over 1 MB: the process counts as overloaded from the first sample (within a second).
    const t = await createTestApp({ LOAD_SHED_MAX_HEAP_USED_MB: '1', LOAD_SHED_RETRY_AFTER_SECONDS: '7' });
    try {
      const shed = await vi.waitFor(
        async () => {
          const response = await t.app.inject({ method: 'GET', url: '/api/app-config' });
          expect(response.statusCode).toBe(503);
          return response;
        },
        { timeout: 5_000, interval: 100 },
      );
      expect(shed.json()).toEqual({ message: OVERLOADED_MESSAGE, code: 'UNAVAILABLE' });
      expect(shed.headers['retry-after']).toBe('7');
      // A refusal is an answer like any other: it carries the security headers.
      expect(shed.headers['x-frame-options']).toBe('DENY');
      expect(shed.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      const post = await t.request({ method: 'POST', url: '/api/user/login-otp/send', payload: {} });
      expect(post.statusCode).toBe(503);
      // A page is told so as a page a person can read, with the same wait, under the page's headers.
      const page = await t.app.inject({ method: 'GET', url: '/about-us' });
      expectRefusalPage(page, { status: 503, heading: 'OffZero is busy', text: OVERLOADED_MESSAGE });
      expect(page.headers['retry-after']).toBe('7');

      for (const url of ['/api/health/live', '/api/health/ready', '/api/health', '/metrics']) {
        const response = await t.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
      }
    } finally {
      await t.close();
    }
  });

  it('lets everything through within the limits', async () => {
    const t = await createTestApp();
    try {
      // Past the first sample, so the limits have been checked at least once.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect((await t.app.inject({ method: 'GET', url: '/api/app-config' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
