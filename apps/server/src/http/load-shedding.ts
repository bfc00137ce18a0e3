import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/config';
import { AppError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: the route answers even when the process is overloaded (health checks, metrics). */
    shedUnderPressure?: boolean;
  }
}

/** Route config of the routes that must answer however busy the process is. */
export const NEVER_SHED = { shedUnderPressure: false } as const;

export const OVERLOADED_MESSAGE = 'The server is busy right now. Try again in a few seconds.';

/** One warning per this long while shedding, not one per refused request. */
const WARN_EVERY_MS = 10_000;

/**
 * Load shedding: when the event loop lags or memory nears its limit, requests are refused at once with
 * 503 `{ message, code: 'UNAVAILABLE' }` and Retry-After, rather than queueing until every one of them
 * times out. Health checks and metrics are exempt (`config: NEVER_SHED`): a busy process is still alive,
 * and turning unready under load would move all of it onto siblings that are likely as busy.
 */
export async function registerLoadShedding(
  app: FastifyInstance,
  limits: AppConfig['loadShedding'],
): Promise<void> {
  let lastWarnedAt = 0;
  let shedSinceWarning = 0;
  await app.register(underPressure, {
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxHeapUsedBytes: limits.maxHeapUsedBytes,
    maxRssBytes: limits.maxRssBytes,
    // A rejected promise goes to the error handler (the usual error body); a resolved one lets it through.
    pressureHandler: async (request, reply, type, value) => {
      if (request.routeOptions.config.shedUnderPressure === false) return;
      shedSinceWarning += 1;
      const now = Date.now();
      if (now - lastWarnedAt >= WARN_EVERY_MS) {
        request.log.warn({ pressure: type, value, shed: shedSinceWarning }, 'overloaded: shedding requests');
        lastWarnedAt = now;
        shedSinceWarning = 0;
      }
      void reply.header('Retry-After', String(limits.retryAfterSeconds));
      throw new AppError('UNAVAILABLE', OVERLOADED_MESSAGE);
    },
  });
}
