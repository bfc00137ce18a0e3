import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRERENDER_DIR, PRERENDER_MANIFEST } from '@offzero/shared/web/prerender';
import { writeBuiltWebApp, writeBuiltWebAppWithPrerenderedPages } from '../test/built-web-app';
import { createTestApp, type TestApp } from '../test/test-app';

describe('the built web app', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = writeBuiltWebApp();
    t = await createTestApp({ WEB_DIST_DIR: dist });
  });
  afterAll(async () => t.close());

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
    });

  it('sends the brotli copy of a script to a browser that accepts it, cached for a year', async () => {
    const response = await get('/assets/index-abc123.js', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(response.rawPayload).toString()).toContain('console.log(');
  });

  it('sends gzip to a browser without brotli, and the plain file to one that accepts neither', async () => {
    const gzipped = await get('/assets/index-abc123.js', 'gzip');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toContain('console.log(');
    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('console.log(');
  });

  it('compresses the page of every browser route, never cached', async () => {
    for (const url of ['/', '/dashboard']) {
      const response = await get(url, 'br');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(response.rawPayload).toString()).toContain('<div id="root">');
    }
  });

  it('never compresses API answers, which carry tokens beside what a customer typed', async () => {
    const response = await get('/api/csrf', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
  });
});

describe('the prerendered public pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      WEB_DIST_DIR: writeBuiltWebAppWithPrerenderedPages(),
      SUPPORT_EMAIL: 'help@example.com',
      POSTAL_ADDRESS: '1 Main St <Suite 2> & Co, Cheyenne, WY',
    });
  });
  afterAll(async () => t.close());

  it("sends the page made for this deployment's mode, filled in with its settings, escaped", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/about-us',
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    const html = brotliDecompressSync(response.rawPayload).toString();
    expect(html).toContain('<p>demo page</p>');
    expect(html).toContain('href="mailto:help@example.com"');
    expect(html).toContain('1 Main St &#60;Suite 2&#62; &#38; Co, Cheyenne, WY');
    expect(html).not.toMatch(/__OFFZERO_/);
  });

  it("carries the deployment's public settings as data (never a script that runs), with the security headers", async () => {
    const response = await t.app.inject({ method: 'GET', url: '/about-us' });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const config = /<script type="application\/json" id="app-config">(.*?)<\/script>/.exec(
      response.body,
    )?.[1];
    expect(config).toBeDefined();
    // No value can close the element early.
    expect(config).not.toContain('<');
    const parsed = JSON.parse(config!) as { supportEmail: string; postalAddress: string; mode: string };
    expect(parsed).toMatchObject({ mode: 'demo', supportEmail: 'help@example.com' });
    expect(parsed.postalAddress).toBe('1 Main St <Suite 2> & Co, Cheyenne, WY');
  });

  it('sends a form the browser posted itself (scripts not yet running) back to its page, unread', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/about-us',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=someone%40example.com',
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/about-us');
    expect(response.body).not.toContain('someone');
    // Only the prerendered pages: any other path still refuses a POST.
    const other = await t.app.inject({ method: 'POST', url: '/dashboard', payload: 'email=x' });
    expect(other.statusCode).toBe(404);
  });

  it('keeps the single-page app for every other route, and never sends the raw prerendered files', async () => {
    const dashboard = await t.app.inject({ method: 'GET', url: '/dashboard' });
    expect(dashboard.statusCode).toBe(200);
    expect(dashboard.body).toContain('<div id="root"></div>');
    expect(dashboard.body).toContain('id="app-config"');
    for (const url of [`/${PRERENDER_DIR}/about-us.demo.html`, `/${PRERENDER_DIR}/${PRERENDER_MANIFEST}`]) {
      const raw = await t.app.inject({ method: 'GET', url });
      expect(raw.body).not.toMatch(/__OFFZERO_|demo page|"showsGoogleSignIn"/);
    }
    const api = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(api.statusCode).toBe(404);
  });
});
