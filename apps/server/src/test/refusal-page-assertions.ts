import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * A request refused before routing that was told so as a page a person can read (web/refusal-page.ts):
 * the status, HTML, under the page's own security headers (not the API's), with its heading and text.
 */
export function expectRefusalPage(
  response: LightMyRequestResponse,
  { status, heading, text }: { status: number; heading: string; text: string },
): void {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['content-security-policy']).toContain("script-src 'self'");
  expect(response.body).toContain(`<h1>${heading}</h1>`);
  expect(response.body).toContain(`<p>${text}</p>`);
}
