import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';

/** A built web app as the build leaves it: files with their brotli and gzip copies beside them. */
function writeBuiltWebApp(): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'offzero-web-'));
  mkdirSync(path.join(dist, 'assets'));
  const write = (name: string, text: string) => {
    const file = path.join(dist, name);
    writeFileSync(file, text);
    writeFileSync(`${file}.br`, brotliCompressSync(text));
    writeFileSync(`${file}.gz`, gzipSync(text));
  };
  write('index.html', `<!doctype html><html><body><div id="root"></div>${' '.repeat(2000)}</body></html>`);
  write('assets/index-abc123.js', `console.log(${JSON.stringify('x'.repeat(4000))});`);
  return dist;
}

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
