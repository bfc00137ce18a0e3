import { createRequire } from 'node:module';
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type {
  FastifyInstance,
  FastifyRequest,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
  RouteOptions,
} from 'fastify';
import { Redis } from 'ioredis';
import { tryAgainSentence } from '@offzero/shared/api/errors';
import { AppError } from './errors';
import { hookList, onlyReads } from './route-hooks';

/** A Redis command slower than this counts as an outage: the request is counted in memory instead. */
export const RATE_LIMIT_REDIS_TIMEOUT_MS = 500;

type StoreCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;
type StoreRouteOptions = RouteOptions & { path: string; prefix: string };

/** The stores @fastify/rate-limit ships (its typings do not export them; both take these arguments). */
interface BuiltInStores {
  LocalStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    cache?: number,
  ) => FastifyRateLimitStore;
  RedisStore: new (
    continueExceeding: boolean,
    exponentialBackoff: boolean,
    redis: Redis,
    key: string,
  ) => FastifyRateLimitStore;
}

/**
 * Counts in Redis while it answers and in this process's memory while it does not, so an outage
 * neither locks customers out nor lifts the limits (DESIGN 7.8: never none). Shared counting resumes
 * by itself once Redis is reachable again.
 */
export class FallbackStore implements FastifyRateLimitStore {
  constructor(
    private readonly redis: Redis,
    private readonly shared: FastifyRateLimitStore,
    private readonly local: FastifyRateLimitStore,
    private readonly onFallback: (error: Error) => void,
  ) {}

  incr(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
    // Not connected: no command is even tried (the offline queue is off), so nothing waits.
    if (this.redis.status !== 'ready') {
      this.local.incr(key, callback, timeWindow, max);
      return;
    }
    this.shared.incr(
      key,
      (error, result) => {
        if (!error) {
          callback(null, result);
          return;
        }
        this.onFallback(error);
        this.local.incr(key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  /** The plugin's non-counting peek (`{ increment: false }`), with the same fallback. */
  read(key: string, callback: StoreCallback, timeWindow: number, max: number): void {
    const peek = (store: FastifyRateLimitStore, done: StoreCallback) =>
      (store as FastifyRateLimitStore & { read: FallbackStore['read'] }).read(key, done, timeWindow, max);
    if (this.redis.status !== 'ready') {
      peek(this.local, callback);
      return;
    }
    peek(this.shared, (error, result) => {
      if (!error) {
        callback(null, result);
        return;
      }
      this.onFallback(error);
      peek(this.local, callback);
    });
  }

  child(routeOptions: StoreRouteOptions): FastifyRateLimitStore {
    return new FallbackStore(
      this.redis,
      this.shared.child(routeOptions),
      this.local.child(routeOptions),
      this.onFallback,
    );
  }
}

/**
 * Per-IP limits, set route by route (`config.rateLimit`). With REDIS_URL the counters are shared by
 * every server process; without it, or while Redis is unreachable, each process counts alone.
 */
export async function registerRateLimits(app: FastifyInstance, redisUrl: string | undefined): Promise<void> {
  const errorResponseBuilder = (_request: unknown, context: { ttl: number }) => {
    const retryAt = new Date(Date.now() + context.ttl);
    return new AppError(
      'TOO_MANY_REQUESTS',
      `Too many requests from your network. ${tryAgainSentence(retryAt, { timeZone: 'UTC' })}`,
      undefined,
      retryAt,
    );
  };
  if (!redisUrl) {
    await app.register(rateLimit, { global: false, errorResponseBuilder });
    return;
  }

  const redis = new Redis(redisUrl, {
    // Fail fast instead of queueing while disconnected; ioredis keeps reconnecting in the background.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: RATE_LIMIT_REDIS_TIMEOUT_MS,
    connectTimeout: 2_000,
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 2_000),
    connectionName: 'offzero-rate-limits',
  });
  // An outage makes ioredis report an error at every retry; log the first one and the recovery.
  let failing = false;
  const reportOutage = (error: Error) => {
    if (failing) return;
    failing = true;
    app.log.warn(
      { err: error },
      'redis unavailable (rate limits); counting in this process until it returns',
    );
  };
  redis.on('error', reportOutage);
  redis.on('close', () => reportOutage(new Error('connection to redis closed')));
  redis.on('ready', () => {
    if (!failing) return;
    failing = false;
    app.log.info('redis reachable again (rate limits); counting is shared again');
  });
  app.addHook('onClose', async () => {
    failing = true; // closing is not an outage worth a warning
    redis.disconnect();
  });

  const { LocalStore, RedisStore } = builtInStores();
  await app.register(rateLimit, {
    global: false,
    // The plugin builds the root store from its own settings; each route then gets `child(...)`.
    store: class {
      constructor(settings: { continueExceeding?: boolean; exponentialBackoff?: boolean }) {
        const continueExceeding = settings.continueExceeding ?? false;
        const exponentialBackoff = settings.exponentialBackoff ?? false;
        return new FallbackStore(
          redis,
          new RedisStore(continueExceeding, exponentialBackoff, redis, 'offzero-rate-limit:'),
          new LocalStore(continueExceeding, exponentialBackoff),
          reportOutage,
        );
      }
    } as unknown as FastifyRateLimitStoreCtor,
    errorResponseBuilder,
  });
}

/** @fastify/rate-limit's own stores, so both ways of counting behave exactly like the plugin's. */
function builtInStores(): BuiltInStores {
  const require = createRequire(import.meta.url);
  return {
    LocalStore: require('@fastify/rate-limit/store/LocalStore.js') as BuiltInStores['LocalStore'],
    RedisStore: require('@fastify/rate-limit/store/RedisStore.js') as BuiltInStores['RedisStore'],
  };
}

/**
 * Every state-changing API call is limited per client IP and per signed-in user (docs/design.md), on
 * top of the tighter limits some routes set for themselves (one-time codes). Counted in the same store
 * as those (Redis when configured, memory while it is down: never none). The IP is counted before the
 * body is read; the user once the route has identified them, so one customer cannot get around the
 * limit by spreading calls over many addresses.
 */
export function registerMutationLimits(
  app: FastifyInstance,
  limits: { perIpPerMinute: number; perUserPerMinute: number },
): void {
  const perIp = app.createRateLimit({
    max: limits.perIpPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `mutations:ip:${request.ip}`,
  });
  const perUser = app.createRateLimit({
    max: limits.perUserPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `mutations:user:${request.signedIn?.user.id ?? ''}`,
  });

  // The error handler sends `retryAt` as the Retry-After header too.
  const enforce = async (check: typeof perIp, request: FastifyRequest) => {
    const result = await check(request);
    if (result.isAllowed || !result.isExceeded) return;
    const retryAt = new Date(Date.now() + result.ttlInSeconds * 1000);
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `Too many requests. ${tryAgainSentence(retryAt, { timeZone: 'UTC' })}`,
      undefined,
      retryAt,
    );
  };
  const limitIp: onRequestAsyncHookHandler = (request) => enforce(perIp, request);
  const limitUser: preHandlerAsyncHookHandler = async (request) => {
    if (request.signedIn) await enforce(perUser, request);
  };

  app.addHook('onRoute', (route) => {
    if (onlyReads(route)) return;
    if (!route.url.startsWith('/api/')) return;
    route.onRequest = [limitIp, ...hookList(route.onRequest)];
    // Last, after the route's own sign-in check has set `request.signedIn`.
    route.preHandler = [...hookList(route.preHandler), limitUser];
  });
}
