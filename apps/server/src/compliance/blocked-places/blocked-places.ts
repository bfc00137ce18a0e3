import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { errorBodySchema, type ErrorBody } from '@offzero/shared/api/errors';
import { hookList } from '../../http/route-hooks';
import type { IpCountryLookup } from './ip-country';

/** The answer of a request from a blocked country (docs/design.md). */
export const BLOCKED_COUNTRY_MESSAGE = 'OffZero is not available in your country.';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Refuse clients whose IP maps to a blocked country (451) before anything else of the route runs:
     * registration, login, quotes, order save and payouts (docs/design.md).
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
  const countryOf = rememberedCountries(options.lookup);
  // A plain callback: it runs on every request of the routes that use it (the price, most of all).
  const guard: onRequestHookHandler = (request, reply, done) => {
    const country = blocked.size === 0 ? null : countryOf(request.ip);
    if (country === null || !blocked.has(country)) {
      done();
      return;
    }
    request.log.info({ country }, 'request refused: client in a blocked country');
    const body: ErrorBody = { message: BLOCKED_COUNTRY_MESSAGE, code: 'BLOCKED_COUNTRY' };
    // Answered here: the route's handler never runs.
    void reply.status(451).send(body);
  };

  app.addHook('onRoute', (route) => {
    if (!route.config?.blockedPlaces) return;
    route.onRequest = [guard, ...hookList(route.onRequest)];
    if (route.schema) {
      // A new object: routes may share one response map. Documented in the OpenAPI document too.
      route.schema.response = {
        451: errorBodySchema,
        ...((route.schema.response ?? {}) as Record<string, unknown>),
      };
    }
  });
}

/** How many client IPs keep their looked-up country; the memory is emptied when it is full. */
const REMEMBERED_IPS = 10_000;

/**
 * The lookup with a memory of recent IPs: a client calls many times, and the database walk costs more
 * than the rest of a price request's checks. The database only changes with the package (a restart).
 */
function rememberedCountries(lookup: IpCountryLookup): (ip: string) => string | null {
  const remembered = new Map<string, string | null>();
  return (ip) => {
    let country = remembered.get(ip);
    if (country === undefined) {
      country = lookup.countryOf(ip);
      if (remembered.size >= REMEMBERED_IPS) remembered.clear();
      remembered.set(ip, country);
    }
    return country;
  };
}
