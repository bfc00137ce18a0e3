#!/usr/bin/env node
// Renders the public pages to HTML after `vite build` (DESIGN: public pages load fast on a phone): the
// server-side build of src/prerender/render-page.tsx renders each page once per deployment variant into
// dist/prerendered/, beside a manifest the server reads at start-up. The server fills in the deployment's
// settings and sends these pages for their paths; the browser hydrates them (src/main.tsx).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const webDir = path.resolve(import.meta.dirname, '..');
const distDir = path.join(webDir, 'dist');
const ssrDir = path.join(webDir, 'dist-ssr');

const { renderPage, PRERENDERED_PATHS, GOOGLE_SIGN_IN_PATHS } = await import(
  pathToFileURL(path.join(ssrDir, 'render-page.js')).href
);
const { PRERENDER_DIR, PRERENDER_MANIFEST, PRERENDER_VARIANTS, prerenderConfig } = await import(
  pathToFileURL(path.join(ssrDir, 'prerender-support.js')).href
);

const template = readFileSync(path.join(distDir, 'index.html'), 'utf8');
const EMPTY_ROOT = '<div id="root"></div>';
if (!template.includes(EMPTY_ROOT)) throw new Error(`dist/index.html has no ${EMPTY_ROOT}`);

// A prerendered page shows its content before any script runs: its scripts load at low priority, so the
// page's HTML and stylesheet come first on a slow connection (the browser still starts them at once).
const prerenderTemplate = template
  .replace(/<script type="module" /g, '<script type="module" fetchpriority="low" ')
  .replace(/<link rel="modulepreload" /g, '<link rel="modulepreload" fetchpriority="low" ');

const outDir = path.join(distDir, PRERENDER_DIR);
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

// The markup refers to browser storage and timers only inside effects, which never run here; a
// module that reads storage while rendering gets an empty one (a visitor who is not signed in).
const memoryStorage = () => {
  const items = new Map();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
    key: (index) => [...items.keys()][index] ?? null,
    get length() {
      return items.size;
    },
  };
};
globalThis.localStorage ??= memoryStorage();
globalThis.sessionStorage ??= memoryStorage();

const pages = [];
for (const variant of PRERENDER_VARIANTS) {
  const config = prerenderConfig(variant);
  for (const pagePath of PRERENDERED_PATHS) {
    let markup = await renderPage(pagePath, config);
    // A page's <title> is rendered where the page declares it; in the document it belongs in the head
    // (React moves it there in the browser and finds it there when hydrating).
    let page = prerenderTemplate;
    const title = /<title>[^<]*<\/title>/.exec(markup)?.[0];
    if (title) {
      markup = markup.replace(title, '');
      page = page.replace(/<title>[^<]*<\/title>/, title);
    }
    const name = pagePath === '/' ? 'home' : pagePath.slice(1).replace(/\//g, '-');
    const file = `${name}.${variant.mode}.html`;
    writeFileSync(path.join(outDir, file), page.replace(EMPTY_ROOT, `<div id="root">${markup}</div>`));
    pages.push({
      path: pagePath,
      file,
      ...variant,
      showsGoogleSignIn: GOOGLE_SIGN_IN_PATHS.includes(pagePath),
    });
  }
}
writeFileSync(path.join(outDir, PRERENDER_MANIFEST), `${JSON.stringify(pages, null, 2)}\n`);
rmSync(ssrDir, { recursive: true, force: true });
console.log(
  `prerendered ${pages.length} pages (${PRERENDERED_PATHS.length} paths × ${PRERENDER_VARIANTS.length} variants)`,
);
