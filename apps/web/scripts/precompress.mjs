#!/usr/bin/env node
// Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the built web app, so the
// server sends compressed bytes without compressing on each request (it picks the copy the browser's
// Accept-Encoding allows). A copy that would not be smaller is not written.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const distDir = path.resolve(import.meta.dirname, '..', 'dist');
const COMPRESSIBLE = /\.(?:html|js|mjs|css|svg|json|txt|xml|webmanifest|map)$/;

// The prerendered pages are filled in with the deployment's settings, then compressed, by the server.
const SKIPPED_DIRS = new Set([path.join(distDir, 'prerendered')]);

function* filesUnder(dir) {
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (SKIPPED_DIRS.has(full)) continue;
    if (statSync(full).isDirectory()) yield* filesUnder(full);
    else yield full;
  }
}

let original = 0;
let brotli = 0;
let count = 0;
for (const file of filesUnder(distDir)) {
  if (!COMPRESSIBLE.test(file)) continue;
  const bytes = readFileSync(file);
  const br = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gz = gzipSync(bytes, { level: 9 });
  if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
  if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
  original += bytes.length;
  brotli += Math.min(br.length, bytes.length);
  count += 1;
}
console.log(
  `precompressed ${count} files: ${(original / 1024).toFixed(0)} kB → ${(brotli / 1024).toFixed(0)} kB brotli`,
);
