import type { RouteOptions } from 'fastify';
import { hookList } from './route-hooks';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * 'optional': the route answers visitors too, and reads the session when one is sent (more for a
     * signed-in caller). Routes that refuse a caller without a session say so with their hook instead.
     */
    session?: 'optional';
  }
}

const sessionHooks = new WeakSet<object>();

/**
 * Marks a hook that refuses a request without a live session (auth/sessions.ts), so the API's own
 * description (http/openapi.ts) can tell which operations need one from the route alone.
 */
export function refusesWithoutSession<Hook extends object>(hook: Hook): Hook {
  sessionHooks.add(hook);
  return hook;
}

/** Whether a route needs the caller's session, reads it when sent, or never looks at it. */
export function sessionUse(
  route: Pick<RouteOptions, 'onRequest' | 'preValidation' | 'preHandler' | 'config'>,
): 'required' | 'optional' | 'none' {
  const hooks = [
    ...hookList<unknown>(route.onRequest),
    ...hookList<unknown>(route.preValidation),
    ...hookList<unknown>(route.preHandler),
  ];
  if (hooks.some((hook) => typeof hook === 'function' && sessionHooks.has(hook))) return 'required';
  return route.config?.session === 'optional' ? 'optional' : 'none';
}
