import type { FastifyInstance } from 'fastify';
import type { AppConfig } from './config/config';
import type { DatabaseHandle } from './db/database';
import { isApiPath, securityHeaderWriter } from './http/security-headers';
import { registerCsrfProtection } from './http/csrf';
import { addressTextRefusal, registerTextInputRules } from './http/text-input';
import { registerIdempotency } from './http/idempotency';
import { registerErrorHandling } from './http/errors';
import { registerOpenApi } from './http/openapi';
import { registerMutationLimits, registerRateLimits } from './http/rate-limits';
import { startLoadShedding } from './http/load-shedding';
import { sendRefusalPage } from './web/refusal-page';
import { drainingAnswers } from './health/graceful-shutdown';
import { registerBlockedPlaces } from './compliance/blocked-places/blocked-places';
import { packagedIpCountryDatabase } from './compliance/blocked-places/ip-country';

/** What marks answers as the last on their connection once the process drains (health/graceful-shutdown.ts). */
export type DrainingAnswers = ReturnType<typeof drainingAnswers>;

/**
 * Every hook a request passes before its route: content types, errors, security headers, load
 * shedding, text rules, rate limits, idempotency, blocked places and CSRF, in the order they must run.
 * Registered before any route, so every route gets them.
 */
export async function registerRequestHooks(
  app: FastifyInstance,
  config: AppConfig,
  database: DatabaseHandle,
): Promise<DrainingAnswers> {
  // Only JSON is accepted (multipart is added per route where uploads exist); anything else is 415.
  app.removeContentTypeParser('text/plain');

  registerErrorHandling(app);
  // Every request's first step, in one hook: its security headers (a refusal carries them too), its
  // connection's end after the answer while the process drains (health/graceful-shutdown.ts), then
  // the load check, which refuses it at once while the process is overloaded, then the text rule on
  // its query string and path parameters (docs/design.md; a body is checked once parsed). A refused
  // page's address is told as a page (web/refusal-page.ts), an API call as JSON, as their headers say.
  const writeSecurityHeaders = await securityHeaderWriter(config);
  const loadShedding = startLoadShedding(app, config.loadShedding);
  const answers = drainingAnswers(app.server);
  app.addHook('onRequest', (request, reply, done) => {
    writeSecurityHeaders(request, reply);
    answers.closeIfDraining(reply);
    const refusal = loadShedding.refusal(request, reply) ?? addressTextRefusal(request);
    if (refusal && !isApiPath(request.url)) {
      sendRefusalPage(reply, refusal);
      return;
    }
    done(refusal);
  });
  // Before any route, so the OpenAPI document sees every one of them.
  if (config.processRole !== 'worker') await registerOpenApi(app);
  registerTextInputRules(app);
  await registerRateLimits(app, config.redisUrl);
  registerMutationLimits(app, config.mutationLimits);
  // After the limits: a call refused as too many never claims its Idempotency-Key.
  registerIdempotency(app, database.db);
  // Routes marked `blockedPlaces` answer 451 to clients in a blocked country (docs/design.md).
  registerBlockedPlaces(app, {
    blockedCountries: config.blockedCountries,
    lookup: packagedIpCountryDatabase(),
  });
  // Last of the per-route hooks, so it runs first: a forged call is refused before anything counts it.
  registerCsrfProtection(app, { secureCookie: config.publicUrl.startsWith('https://') });
  return answers;
}
