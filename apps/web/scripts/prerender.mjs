#!/usr/bin/env node
// Renders the public pages to HTML after `vite build` (DESIGN: public pages load fast on a phone): the
// server-side build of src/prerender/render-page.tsx renders each page once per deployment variant into
// dist/prerendered/, beside a manifest the server reads at start-up. The server fills in the deployment's
// settings and sends these pages for their paths; the browser hydrates them (src/main.tsx).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const webDir = path.resolve(import.meta.dirname, '..');
const distDir = path.join(webDir, 'dist');
const ssrDir = path.join(webDir, 'dist-ssr');

const { renderPage, renderSignedInShell, PRERENDERED_PATHS, SIGNED_IN_SHELL_PATHS, GOOGLE_SIGN_IN_PATHS } =
  await import(pathToFileURL(path.join(ssrDir, 'render-page.js')).href);
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

// A signed-in page's frame first checks, before anything is painted, that the browser holds a session
// (public/session-gate.js, a plain script: it blocks the page only while the stylesheet loads too, and
// is renamed by its content, like every asset, so browsers keep it), and marks its root so the app
// hydrates it only for a signed-in customer (src/main.tsx).
const gateSource = readFileSync(path.join(distDir, 'session-gate.js'));
const gateFile = `assets/session-gate-${createHash('sha256').update(gateSource).digest('hex').slice(0, 10)}.js`;
writeFileSync(path.join(distDir, gateFile), gateSource);
rmSync(path.join(distDir, 'session-gate.js'));
const SESSION_GATE = `<script src="/${gateFile}"></script>`;
const shellTemplate = prerenderTemplate
  .replace(/<meta charset="UTF-8" \/>/, (charset) => `${charset}\n    ${SESSION_GATE}`)
  .replace(EMPTY_ROOT, '<div id="root" data-signed-in-shell=""></div>');
if (!shellTemplate.includes(SESSION_GATE)) throw new Error('dist/index.html has no <meta charset="UTF-8" />');

// Each page's own modules (its route's, src/app/router.tsx) are announced in its head, so the browser
// fetches them with the app's entry instead of after it, and the app, finding them there, adds no
// preload links of its own while it starts. The build's manifest names their chunks; it is not served.
const ROUTE_SOURCES = {
  '/': ['src/app/routes/home.tsx'],
  '/about-us': ['src/features/marketing/about-page.tsx'],
  '/login': ['src/features/auth/login-page.tsx'],
  '/register': ['src/features/auth/register-page.tsx'],
  '/terms-of-use': ['src/features/legal/terms-of-use-page.tsx'],
  '/privacy-policy': ['src/features/legal/privacy-policy-page.tsx'],
  '/cookie-policy': ['src/features/legal/cookie-policy-page.tsx'],
  '/refund-policy': ['src/features/legal/refund-policy-page.tsx'],
  '/dashboard': ['src/app/layouts/dashboard-layout.tsx', 'src/app/routes/dashboard.tsx'],
};
const manifestFile = path.join(distDir, '.vite', 'manifest.json');
if (!existsSync(manifestFile))
  throw new Error('dist/.vite/manifest.json is missing (vite.config.ts: build.manifest)');
const buildManifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
rmSync(path.join(distDir, '.vite'), { recursive: true, force: true });

/** The chunks a page's route modules import, beyond those the entry already brings. */
function routeChunks(pagePath) {
  const sources = ROUTE_SOURCES[pagePath];
  if (!sources) throw new Error(`scripts/prerender.mjs: no route modules listed for ${pagePath}`);
  const entryChunks = new Set();
  const addEntry = (key) => {
    const chunk = buildManifest[key];
    if (!chunk || entryChunks.has(chunk.file)) return;
    entryChunks.add(chunk.file);
    for (const imported of chunk.imports ?? []) addEntry(imported);
  };
  addEntry('index.html');
  const files = [];
  const add = (key) => {
    const chunk = buildManifest[key];
    if (!chunk) throw new Error(`scripts/prerender.mjs: the build has no module ${key} (${pagePath})`);
    if (entryChunks.has(chunk.file) || files.includes(chunk.file)) return;
    files.push(chunk.file);
    for (const imported of chunk.imports ?? []) add(imported);
  };
  for (const source of sources) add(source);
  return files;
}

/** The page's template with its route's chunks preloaded beside the entry's. */
function withRouteChunks(pageTemplate, pagePath) {
  const links = routeChunks(pagePath)
    .map((file) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`)
    .join('\n    ');
  const stylesheet = /\n\s*<link rel="stylesheet"/;
  if (!stylesheet.test(pageTemplate)) throw new Error('dist/index.html has no stylesheet link');
  return links ? pageTemplate.replace(stylesheet, (link) => `\n    ${links}${link}`) : pageTemplate;
}

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

const rendered = [
  ...PRERENDERED_PATHS.map((pagePath) => ({ pagePath, render: renderPage, template: prerenderTemplate })),
  ...SIGNED_IN_SHELL_PATHS.map((pagePath) => ({
    pagePath,
    render: renderSignedInShell,
    template: shellTemplate,
  })),
];
const pages = [];
for (const variant of PRERENDER_VARIANTS) {
  const config = prerenderConfig(variant);
  for (const { pagePath, render, template: pageTemplate } of rendered) {
    let markup = await render(pagePath, config);
    // A page's <title> is rendered where the page declares it; in the document it belongs in the head
    // (React moves it there in the browser and finds it there when hydrating).
    let page = withRouteChunks(pageTemplate, pagePath);
    const title = /<title>[^<]*<\/title>/.exec(markup)?.[0];
    if (title) {
      markup = markup.replace(title, '');
      page = page.replace(/<title>[^<]*<\/title>/, title);
    }
    const name = pagePath === '/' ? 'home' : pagePath.slice(1).replace(/\//g, '-');
    const file = `${name}.${variant.mode}.html`;
    writeFileSync(
      path.join(outDir, file),
      page.replace(/(<div id="root"[^>]*>)<\/div>/, (_, root) => `${root}${markup}</div>`),
    );
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
  `prerendered ${pages.length} pages (${rendered.length} paths × ${PRERENDER_VARIANTS.length} variants)`,
);
