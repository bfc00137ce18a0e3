import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes } from 'react-router';
import type { PublicAppConfig } from '@offzero/shared/api/app-config';
import { APP_CONFIG_ELEMENT_ID } from '@offzero/shared/web/prerender';
import { App } from './app/app';
import { routes } from './app/router';
import { readAppConfig } from './lib/read-app-config';
import { followScreens } from './lib/screen-freshness';
import { assumePrerenderedSession } from './lib/session';
import { getSession } from './lib/session-storage';
import './index.css';

// Used only if the server cannot be reached at start-up, so the public pages still render.
const fallbackConfig: PublicAppConfig = {
  mode: 'demo',
  supportEmail: 'support@offzero.com',
  blogUrl: 'https://blog.offzero.com',
  social: {
    x: 'https://x.com/offzero',
    facebook: 'https://facebook.com/offzero',
    linkedin: 'https://linkedin.com/company/offzero',
  },
  postalAddress: '1621 Central Ave, Cheyenne, WY 82001, USA',
  googleClientId: null,
  paypalClientId: null,
  bitcoinNetwork: 'testnet',
  explorerUrl: 'https://mempool.space/testnet',
};

async function loadConfig(): Promise<PublicAppConfig> {
  // The server writes its settings into the page, which saves a round trip before the first render.
  const embedded = document.getElementById(APP_CONFIG_ELEMENT_ID)?.textContent;
  if (embedded) {
    try {
      const parsed = readAppConfig(JSON.parse(embedded));
      if (parsed) return parsed;
    } catch {
      // Unreadable: ask the server instead.
    }
  }
  try {
    const response = await fetch('/api/app-config');
    if (!response.ok) return fallbackConfig;
    return readAppConfig(await response.json()) ?? fallbackConfig;
  } catch {
    return fallbackConfig;
  }
}

/**
 * A page prerendered at build time is hydrated: its route modules are loaded first, so the first render
 * in the browser matches the HTML (a lazy route would otherwise show the loading fallback).
 */
async function resolveLazyRoutes(): Promise<void> {
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const resolved = await route.lazy();
      Object.assign(route, { ...resolved, lazy: undefined });
    }),
  );
}

// Every form of the app is submitted by its own handler. A prerendered form whose code is still loading
// (lib/deferred-component.tsx) would otherwise be posted by the browser itself and leave the page.
document.addEventListener('submit', (event) => event.preventDefault());

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('The page has no #root element');

/**
 * A signed-in page's prerendered frame (src/prerender/render-page.tsx) is hydrated with the browser's
 * session. Without one (public/session-gate.js has already sent the visitor home) it is dropped, and
 * the app renders afresh.
 */
function prerenderedMarkup(root: HTMLElement): boolean {
  if (!root.hasChildNodes()) return false;
  if (!root.hasAttribute('data-signed-in-shell')) return true;
  const session = getSession();
  if (session) {
    assumePrerenderedSession(session.token);
    return true;
  }
  root.replaceChildren();
  return false;
}
const prerendered = prerenderedMarkup(rootElement);

/**
 * Resolves once the browser has painted the prerendered page (the frame after the next one starts), so
 * loading the route's code and hydrating never hold back the first paint. A hidden tab paints no
 * frames: there the timer decides.
 */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}

void (async () => {
  if (prerendered) await afterFirstPaint();
  const [config] = await Promise.all([loadConfig(), prerendered ? resolveLazyRoutes() : undefined]);
  const router = createBrowserRouter(routes);
  followScreens(router);
  const app = (
    <StrictMode>
      <App config={config} router={router} />
    </StrictMode>
  );
  // A transition lets React hydrate in short slices, so the page answers input while it hydrates.
  if (prerendered) startTransition(() => void hydrateRoot(rootElement, app));
  else createRoot(rootElement).render(app);
})();
