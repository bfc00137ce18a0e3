import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBodySchema, type ErrorBody } from '@offzero/shared/api/errors';
import type { IpCountryLookup } from './ip-country';

/** The answer of a request from a blocked country (DESIGN.md 7.9). */
export const BLOCKED_COUNTRY_MESSAGE = 'OffZero is not available in your country.';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Refuse clients whose IP maps to a blocked country (451) before anything else of the route runs:
     * registration, login, quotes, order save and payouts (DESIGN.md 7.9).
     */
    blockedPlaces?: boolean;
  }
}

/**
 * Switches the blocked-places check on for every route whose config says `blockedPlaces: true`. The
 * client IP is Fastify's `request.ip`, which honours `TRUST_PROXY`: `X-Forwarded-For` counts only
 * from trusted proxies, so a client cannot choose its own country. Register before the routes.
 */
export function registerBlockedPlaces(
  app: FastifyInstance,
  options: { blockedCountries: readonly string[]; lookup: IpCountryLookup },
): void {
  const blocked = new Set(options.blockedCountries.map((code) => code.toUpperCase()));
  const guard = async (request: FastifyRequest, reply: FastifyReply) => {
    if (blocked.size === 0) return;
    const country = options.lookup.countryOf(request.ip);
    if (country === null || !blocked.has(country)) return;
    request.log.info({ country }, 'request refused: client in a blocked country');
    const body: ErrorBody = { message: BLOCKED_COUNTRY_MESSAGE, code: 'BLOCKED_COUNTRY' };
    return reply.status(451).send(body);
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.blockedPlaces) return;
    route.onRequest = [guard, ...toArray(route.onRequest)];
    if (route.schema) {
      // A new object: routes may share one response map. Documented in the OpenAPI document too.
      route.schema.response = {
        451: errorBodySchema,
        ...((route.schema.response ?? {}) as Record<string, unknown>),
      };
    }
  });
}

function toArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
