import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import {
  PRERENDER_DIR,
  PRERENDER_MANIFEST,
  prerenderConfig,
  type PrerenderedPage,
} from '@offzero/shared/web/prerender';

/** A built web app as the build leaves it: files with their brotli and gzip copies beside them. */
export function writeBuiltWebApp(): string {
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

/** A build with prerendered public pages: one for the demo's settings and one for production's. */
export function writeBuiltWebAppWithPrerenderedPages(): string {
  const dist = writeBuiltWebApp();
  const dir = path.join(dist, PRERENDER_DIR);
  mkdirSync(dir);
  const page = (mode: string) =>
    `<!doctype html><html><head><title>About Us</title></head><body><div id="root">` +
    `<p>${mode} page</p><a href="mailto:${prerenderConfig({ mode: 'demo', bitcoinNetwork: 'testnet' }).supportEmail}">Contact</a>` +
    `<address>${prerenderConfig({ mode: 'demo', bitcoinNetwork: 'testnet' }).postalAddress}</address>` +
    `</div></body></html>`;
  writeFileSync(path.join(dir, 'about-us.demo.html'), page('demo'));
  writeFileSync(path.join(dir, 'about-us.production.html'), page('production'));
  const manifest: PrerenderedPage[] = [
    {
      path: '/about-us',
      file: 'about-us.demo.html',
      mode: 'demo',
      bitcoinNetwork: 'testnet',
      showsGoogleSignIn: false,
    },
    {
      path: '/about-us',
      file: 'about-us.production.html',
      mode: 'production',
      bitcoinNetwork: 'mainnet',
      showsGoogleSignIn: false,
    },
  ];
  writeFileSync(path.join(dir, PRERENDER_MANIFEST), JSON.stringify(manifest));
  return dist;
}
