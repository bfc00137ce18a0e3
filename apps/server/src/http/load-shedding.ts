import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
/** How often the event loop delay and the memory are sampled. */
const SAMPLE_EVERY_MS = 1_000;
/** The delay monitor's resolution, taken off its mean (a loop with nothing to do still waits this long). */
const RESOLUTION_MS = 10;

export type Pressure = 'eventLoopDelay' | 'heapUsedBytes' | 'rssBytes';

export interface LoadShedding {
  /**
   * The refusal of this request when the process is overloaded (503 UNAVAILABLE, Retry-After set on the
   * reply), or undefined to let it through. Costs a comparison while the process is not overloaded.
   */
  refusal(request: FastifyRequest, reply: FastifyReply): AppError | undefined;
}

/**
 * Load shedding: when the event loop lags or memory nears its limit, requests are refused at once with
 * 503 `{ message, code: 'UNAVAILABLE' }` and Retry-After, rather than queueing until every one of them
 * times out. Health checks and metrics are exempt (`config: NEVER_SHED`): a busy process is still alive,
 * and turning unready under load would move all of it onto siblings that are likely as busy.
 *
 * The event loop delay (mean over the last second, as @fastify/under-pressure measures it), the heap
 * and the resident memory are sampled once a second; a request only reads the verdict, in the app's
 * first hook (app.ts). A limit of 0 is off.
 */
export function startLoadShedding(app: FastifyInstance, limits: AppConfig['loadShedding']): LoadShedding {
  let pressure: { type: Pressure; value: number } | null = null;
  const delays = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  delays.enable();
  const sample = () => {
    // No sample at all in a whole second: the loop was blocked for all of it.
    const delayMs = Number.isNaN(delays.mean) ? Infinity : Math.max(0, delays.mean / 1e6 - RESOLUTION_MS);
    delays.reset();
    const { heapUsed, rss } = process.memoryUsage();
    if (limits.maxEventLoopDelayMs > 0 && delayMs > limits.maxEventLoopDelayMs) {
      pressure = { type: 'eventLoopDelay', value: delayMs };
    } else if (limits.maxHeapUsedBytes > 0 && heapUsed > limits.maxHeapUsedBytes) {
      pressure = { type: 'heapUsedBytes', value: heapUsed };
    } else if (limits.maxRssBytes > 0 && rss > limits.maxRssBytes) {
      pressure = { type: 'rssBytes', value: rss };
    } else {
      pressure = null;
    }
  };
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    delays.disable();
  });

  const retryAfter = String(limits.retryAfterSeconds);
  let lastWarnedAt = 0;
  let shedSinceWarning = 0;
  return {
    refusal(request, reply) {
      if (pressure === null || request.routeOptions.config.shedUnderPressure === false) return undefined;
      shedSinceWarning += 1;
      const now = Date.now();
      if (now - lastWarnedAt >= WARN_EVERY_MS) {
        request.log.warn(
          { pressure: pressure.type, value: pressure.value, shed: shedSinceWarning },
          'overloaded: shedding requests',
        );
        lastWarnedAt = now;
        shedSinceWarning = 0;
      }
      void reply.header('Retry-After', retryAfter);
      return new AppError('UNAVAILABLE', OVERLOADED_MESSAGE);
    },
  };
}
