import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { parseRealtimeEvent, type RealtimeEvent } from '@offzero/shared/api/realtime';

/**
 * Realtime events for one user, as the shared contract defines them (packages/shared/src/api/realtime).
 * Services publish them after the change they announce is committed; the realtime route pushes each one
 * to that user's open sockets, in whichever process holds them.
 */
export { parseRealtimeEvent, type RealtimeEvent };

export type RealtimeListener = (userId: string, event: RealtimeEvent) => void;

export interface EventBus {
  /**
   * Sends an event to every process. Best effort: it never rejects (a Redis outage is logged), so a
   * caller's committed work never fails because a notice could not be pushed.
   */
  publish(userId: string, event: RealtimeEvent): Promise<void>;
  /** Calls the listener for every event published by any process; returns the unsubscribe function. */
  subscribe(listener: RealtimeListener): () => void;
  /**
   * Calls the listener when this process is back in touch with the others after an outage, so events
   * may have been missed meanwhile; returns the unsubscribe function. A single process never misses one.
   */
  onGap(listener: () => void): () => void;
  close(): Promise<void>;
}

export type EventBusLogger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The event as the contract allows it (unknown fields stripped, so nothing internal reaches a browser),
 * or null after logging: a publisher's bug must not fail the committed work that announced it.
 */
function conforming(event: RealtimeEvent, log: EventBusLogger | undefined): RealtimeEvent | null {
  const checked = parseRealtimeEvent(event);
  if (!checked) log?.error({ eventType: event.type }, 'realtime event does not match the contract; dropped');
  return checked;
}

/** A set of listeners where one failing listener cannot stop the others from hearing an event. */
function createListenerSet(log: EventBusLogger | undefined) {
  const listeners = new Set<RealtimeListener>();
  return {
    add(listener: RealtimeListener): () => void {
      // Wrapped so that subscribing the same function twice gives two independent subscriptions.
      const entry: RealtimeListener = (userId, event) => listener(userId, event);
      listeners.add(entry);
      return () => {
        listeners.delete(entry);
      };
    },
    emit(userId: string, event: RealtimeEvent): void {
      for (const listener of [...listeners]) {
        try {
          listener(userId, event);
        } catch (error) {
          log?.error({ err: error, eventType: event.type }, 'realtime listener failed');
        }
      }
    },
    clear(): void {
      listeners.clear();
    },
  };
}

/** One process serves every socket: events go straight from publisher to listeners. */
export function createMemoryEventBus(log?: EventBusLogger): EventBus {
  const listeners = createListenerSet(log);
  let closed = false;
  return {
    async publish(userId, event) {
      if (closed) return;
      const checked = conforming(event, log);
      if (checked) listeners.emit(userId, checked);
    },
    subscribe(listener) {
      return listeners.add(listener);
    },
    onGap() {
      return () => undefined;
    },
    async close() {
      closed = true;
      listeners.clear();
    },
  };
}

export interface RedisEventBusOptions {
  /** The pub/sub channel every process shares; tests give each run its own. */
  channel?: string;
}

export interface RedisEventBus extends EventBus {
  /**
   * Resolves once this process is subscribed (events published earlier are not seen here) and its
   * publishing connection is up.
   */
  ready(): Promise<void>;
}

export const DEFAULT_REALTIME_CHANNEL = 'offzero:realtime';

/** The longest a publish waits for Redis before giving up (and delivering in this process only). */
export const PUBLISH_TIMEOUT_MS = 1_000;
/** The longest pause between two attempts to reach Redis again. */
const REDIS_RETRY_CAP_MS = 2_000;

/**
 * Several processes: every event goes through one Redis channel as JSON `{ userId, event }`; every
 * process hears every event and its realtime route delivers it only to the sockets it holds.
 * A publisher and a subscriber connection, since a subscribed Redis connection can do nothing else.
 */
export function createRedisEventBus(
  redisUrl: string,
  log: EventBusLogger,
  options: RedisEventBusOptions = {},
): RedisEventBus {
  const channel = options.channel ?? DEFAULT_REALTIME_CHANNEL;
  const listeners = createListenerSet(log);
  const gapListeners = new Set<() => void>();
  // Commands wait for a reconnect, but not for long: after one failed attempt they fail (and are logged).
  // ioredis keeps reconnecting for as long as the process lives, at most REDIS_RETRY_CAP_MS apart, and
  // subscribes again by itself once connected (autoResubscribe), so events flow again without a restart.
  const connectionOptions = {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    lazyConnect: false,
    connectTimeout: 2_000,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, REDIS_RETRY_CAP_MS),
  };
  const publisher = new Redis(redisUrl, {
    ...connectionOptions,
    // A publish never holds up the request that committed the change for longer than this.
    commandTimeout: PUBLISH_TIMEOUT_MS,
    connectionName: 'offzero-realtime-pub',
  });
  const subscriber = new Redis(redisUrl, { ...connectionOptions, connectionName: 'offzero-realtime-sub' });
  let closed = false;

  const closedNow = () => closed;
  watchConnection('publisher', publisher, log, closedNow, () => undefined);
  // While the subscriber was cut off, other processes' events did not reach this one.
  watchConnection('subscriber', subscriber, log, closedNow, () => {
    for (const listener of [...gapListeners]) {
      try {
        listener();
      } catch (error) {
        log.error({ err: error }, 'realtime gap listener failed');
      }
    }
  });

  subscriber.on('message', (messageChannel: string, message: string) => {
    if (messageChannel !== channel) return;
    const read = readChannelMessage(message, channel, log);
    if (read) listeners.emit(read.userId, read.event);
  });

  // Subscribe at every (re)connection until it has worked once; from then on ioredis subscribes again
  // by itself after a reconnect (autoResubscribe).
  let markSubscribed: () => void = () => undefined;
  const subscribed = new Promise<void>((resolve) => {
    markSubscribed = resolve;
  });
  let isSubscribed = false;
  subscriber.on('ready', () => {
    if (isSubscribed || closed) return;
    subscriber.subscribe(channel).then(
      () => {
        isSubscribed = true;
        markSubscribed();
      },
      (error: unknown) => {
        if (!closed) log.warn({ err: error, channel }, 'could not subscribe to realtime events yet');
      },
    );
  });

  return {
    async publish(userId, event) {
      if (closed) return;
      const checked = conforming(event, log);
      if (!checked) return;
      // Plain JSON values once the contract has checked them, so this cannot throw.
      const message = JSON.stringify({ userId, event: checked });
      try {
        await publisher.publish(channel, message);
      } catch (error) {
        // Redis is down: this process's own sockets still hear it; other processes miss it.
        log.warn({ err: error, eventType: event.type }, 'could not publish a realtime event through redis');
        listeners.emit(userId, checked);
      }
    },
    subscribe(listener) {
      return listeners.add(listener);
    },
    onGap(listener) {
      const entry = () => listener();
      gapListeners.add(entry);
      return () => {
        gapListeners.delete(entry);
      };
    },
    ready() {
      const publisherReady =
        publisher.status === 'ready'
          ? Promise.resolve()
          : new Promise<void>((resolve) => publisher.once('ready', () => resolve()));
      return Promise.all([subscribed, publisherReady]).then(() => undefined);
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      gapListeners.clear();
      await Promise.all([shutdown(subscriber), shutdown(publisher)]);
    },
  };
}

async function shutdown(connection: Redis): Promise<void> {
  if (connection.status === 'ready') {
    try {
      await connection.quit();
      return;
    } catch {
      // fall through to a hard disconnect
    }
  }
  connection.disconnect();
}

/**
 * An outage makes ioredis emit an error at every retry: logs the first one and the recovery, and
 * calls `onRecovered` when the connection is back (unless the bus is closed).
 */
function watchConnection(
  role: 'publisher' | 'subscriber',
  connection: Redis,
  log: EventBusLogger,
  isClosed: () => boolean,
  onRecovered: () => void,
): void {
  let failing = false;
  connection.on('error', (error: Error) => {
    if (failing || isClosed()) return;
    failing = true;
    log.warn({ err: error, role }, 'redis unavailable (realtime events); retrying');
  });
  connection.on('ready', () => {
    if (!failing) return;
    failing = false;
    log.info({ role }, 'redis reachable again (realtime events)');
    if (!isClosed()) onRecovered();
  });
}

/** A message of the channel as `{ userId, event }`; null (logged) when it is not one. */
function readChannelMessage(
  message: string,
  channel: string,
  log: EventBusLogger,
): { userId: string; event: RealtimeEvent } | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    log.warn({ channel }, 'ignored a malformed realtime message (not JSON)');
    return null;
  }
  const event = isRecord(parsed) ? parseRealtimeEvent(parsed.event) : null;
  if (!isRecord(parsed) || typeof parsed.userId !== 'string' || parsed.userId === '' || !event) {
    log.warn({ channel }, 'ignored a malformed realtime message');
    return null;
  }
  return { userId: parsed.userId, event };
}
