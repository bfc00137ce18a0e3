import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import type { PublicAppConfig } from '@offzero/shared/api/app-config';
import { AppProviders } from '../app/app';
import { routes } from '../app/router';
import { paths } from '../config/paths';
import { loadDeferredComponents } from '../lib/deferred-component';
import { assumePrerenderedSession } from '../lib/session';

/**
 * The build's entry for prerendering (scripts/prerender.mjs): the public pages a visitor can open
 * before signing in, rendered to HTML that the browser then hydrates (main.tsx).
 */
export const PRERENDERED_PATHS = [
  paths.home,
  paths.about,
  paths.login,
  paths.register,
  paths.termsOfUse,
  paths.privacyPolicy,
  paths.cookiePolicy,
  paths.refundPolicy,
];

/** The pages whose sign-in form holds the Google button when Google sign-in is configured. */
export const GOOGLE_SIGN_IN_PATHS: string[] = [paths.login, paths.register];

/**
 * The signed-in pages whose frame is rendered ahead of time: the navigation, the top bar and the page's
 * loading state, as a signed-in customer's first render shows them before their data arrives. They hold
 * no customer data (there is none at build time); the browser hydrates them when it holds a session,
 * and public/session-gate.js sends a visitor without one home before anything is painted.
 */
export const SIGNED_IN_SHELL_PATHS = [paths.dashboard];

/** The session the signed-in frames are rendered with: no one's (no id), never expiring. */
const STAND_IN_TOKEN = `shell.${btoa(JSON.stringify({ _id: '', exp: 253402300799 }))}.shell`;

/** The markup of a signed-in page's frame (`SIGNED_IN_SHELL_PATHS`) before any data has arrived. */
export async function renderSignedInShell(path: string, config: PublicAppConfig): Promise<string> {
  assumePrerenderedSession(STAND_IN_TOKEN);
  try {
    return await renderPage(path, config);
  } finally {
    assumePrerenderedSession(null);
  }
}

/** The markup of the page at `path` as a visitor's first render shows it. */
export async function renderPage(path: string, config: PublicAppConfig): Promise<string> {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error(`${path} answered a redirect (${context.status})`);
  if (context.errors) throw new Error(`${path} failed to render: ${JSON.stringify(context.errors)}`);
  // The route modules are loaded now; the components they defer must be in the HTML too.
  await loadDeferredComponents();
  const router = createStaticRouter(handler.dataRoutes, context);
  // hydrate={false}: no inline script (the content security policy forbids them); the browser router
  // starts from the address and the route modules main.tsx loads before hydrating.
  return renderToString(
    <AppProviders config={config}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
}
