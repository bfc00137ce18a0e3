import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../config/config';
import { apiNotFound } from '../http/errors';
import { NEVER_SHED } from '../http/load-shedding';
import type { AppMetrics } from './app-metrics';

export const METRICS_PATH = '/metrics';

/** Compares digests, so neither the token's length nor its content leaks through timing. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * `GET /metrics`: Prometheus text exposition (docs/design.md). Demo serves it to anyone. In
 * production it answers only `Authorization: Bearer $METRICS_TOKEN`; anything else (no token set, none
 * sent, a wrong one) is the same 404 as a path that does not exist, so it tells a prober nothing.
 * Not under /api and not JSON, so it stays out of the OpenAPI document.
 */
export function metricsRoutes(
  metrics: AppMetrics,
  config: Pick<AppConfig, 'isDemo' | 'metricsToken'>,
): FastifyPluginAsync {
  const token = config.metricsToken;
  const allowed = (authorization: string | undefined): boolean => {
    if (config.isDemo) return true;
    if (!token || !authorization?.startsWith('Bearer ')) return false;
    return sameSecret(authorization.slice('Bearer '.length).trim(), token);
  };

  return async (app) => {
    app.get(
      METRICS_PATH,
      { logLevel: 'warn', config: NEVER_SHED, schema: { hide: true } },
      async (request, reply) => {
        if (!allowed(request.headers.authorization)) {
          return reply.status(404).send(apiNotFound(request.method, request.url));
        }
        const { contentType, text } = await metrics.render();
        return reply.header('cache-control', 'no-store').type(contentType).send(text);
      },
    );
  };
}
