import { randomBytes, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { z } from 'zod';
import { isUnderApi } from './api-path';
import { AppError } from './errors';
import { hookList } from './route-hooks';

/**
 * Double-submit protection (docs/design.md): `GET /api/csrf` hands out a token in the answer and
 * the same value in an HttpOnly cookie; every state-changing request must send it back in the
 * `X-CSRF-Token` header together with the cookie. Signed provider webhooks opt out with
 * `config: { csrf: false }` on their route because they prove themselves with a signature.
 */
export const CSRF_COOKIE = 'offzero_csrf';
export const CSRF_HEADER = 'x-csrf-token';
/**
 * What a client outside a browser (a benchmark, a test's second server process) sends with a
 * state-changing call once `GET /api/csrf` gave it `token`: the header and the cookie a browser sends.
 */
export function csrfRequestHeaders(token: string): Record<string, string> {
  return { [CSRF_HEADER]: token, cookie: `${CSRF_COOKIE}=${token}` };
}
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const CSRF_MAX_AGE_SECONDS = 30 * 24 * 3600;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False on routes that prove their origin another way (signed webhooks). */
    csrf?: boolean;
  }
}

export function registerCsrfProtection(app: FastifyInstance, options: { secureCookie: boolean }): void {
  // The token's cookie is the only cookie the API reads or sets: it is written and read here with the
  // `cookie` library (the one Fastify's cookie plugin uses), so no request runs cookie hooks and the
  // route lives in the app's own context like every other (route-modules.ts says why that matters).
  app.get(
    '/api/csrf',
    {
      schema: {
        summary: 'A cross-site protection token (also set as a cookie) for state-changing calls',
        response: { 200: z.object({ _csrf: z.string() }) },
      },
    },
    async (_request, reply) => {
      const token = randomBytes(32).toString('base64url');
      void reply.header(
        'set-cookie',
        stringifySetCookie({
          name: CSRF_COOKIE,
          value: token,
          path: '/api',
          httpOnly: true,
          sameSite: 'strict',
          secure: options.secureCookie,
          maxAge: CSRF_MAX_AGE_SECONDS,
        }),
      );
      return { _csrf: token };
    },
  );
  const csrfCookie = (request: FastifyRequest): string | undefined => {
    const header = request.headers.cookie;
    return header ? parseCookie(header)[CSRF_COOKIE] : undefined;
  };

  // onRequest, so a forged request is refused before its body is even read. Attached only to the routes
  // that take state-changing methods, first of their hooks (before the limits count the call), so a read
  // pays nothing for it; unknown paths have no route and answer 404 instead.
  const checkCsrf: onRequestHookHandler = (request, _reply, done) => {
    try {
      if (
        STATE_CHANGING.has(request.method) &&
        isUnderApi(request.url) &&
        !hasValidCsrfToken(request.headers[CSRF_HEADER], csrfCookie(request))
      ) {
        throw new AppError(
          'CSRF_INVALID',
          'Your security token is missing or out of date. Reload the page and try again.',
        );
      }
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  };
  app.addHook('onRoute', (route) => {
    if (needsCsrfToken(route)) route.onRequest = [checkCsrf, ...hookList(route.onRequest)];
  });
}

/** Whether a route refuses a call without the CSRF token: every state-changing one, bar signed webhooks. */
export function needsCsrfToken(route: Pick<RouteOptions, 'method' | 'config'>): boolean {
  return route.config?.csrf !== false && [route.method].flat().some((method) => STATE_CHANGING.has(method));
}

function hasValidCsrfToken(header: string | string[] | undefined, cookie: string | undefined): boolean {
  if (typeof header !== 'string' || !cookie) return false;
  const a = Buffer.from(header);
  const b = Buffer.from(cookie);
  return a.length === b.length && timingSafeEqual(a, b);
}
