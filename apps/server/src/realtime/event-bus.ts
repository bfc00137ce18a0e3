import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * Realtime events for one user. Services publish them after the change they announce is committed;
 * the realtime route pushes each one to that user's open sockets, in whichever process holds them.
 */
export type RealtimeEvent =
  | { type: 'new-transaction'; payload: { amount: number; _id: string; txn: string } }
  | { type: 'order-updated'; payload: { order: unknown } }
  | { type: 'kyc-updated'; payload: { status: string } };

export type RealtimeListener = (userId: string, event: RealtimeEvent) => void;

export interface EventBus {
  /**
   * Sends an event to every process. Best effort: it never rejects (a Redis outage is logged), so a
   * caller's committed work never fails because a notice could not be pushed.
   */
  publish(userId: string, event: RealtimeEvent): Promise<void>;
  /** Calls the listener for every event published by any process; returns the unsubscribe function. */
  subscribe(listener: RealtimeListener): () => void;
  close(): Promise<void>;
}

export type EventBusLogger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The event, if `value` is a well-formed one; anything else (another app's message, a typo) is null. */
export function parseRealtimeEvent(value: unknown): RealtimeEvent | null {
  if (!isRecord(value) || typeof value.type !== 'string' || !isRecord(value.payload)) return null;
  const { payload } = value;
  switch (value.type) {
    case 'new-transaction':
      return typeof payload.amount === 'number' &&
        Number.isFinite(payload.amount) &&
        typeof payload._id === 'string' &&
        typeof payload.txn === 'string'
        ? { type: 'new-transaction', payload: { amount: payload.amount, _id: payload._id, txn: payload.txn } }
        : null;
    case 'order-updated':
      return 'order' in payload ? { type: 'order-updated', payload: { order: payload.order } } : null;
    case 'kyc-updated':
      return typeof payload.status === 'string'
        ? { type: 'kyc-updated', payload: { status: payload.status } }
        : null;
    default:
      return null;
  }
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
      listeners.emit(userId, event);
    },
    subscribe(listener) {
      return listeners.add(listener);
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
  /** Resolves once this process is subscribed (events published earlier are not seen here). */
  ready(): Promise<void>;
}

export const DEFAULT_REALTIME_CHANNEL = 'offzero:realtime';

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
  // Commands wait for a reconnect, but not for long: after one failed attempt they fail (and are logged).
  const connectionOptions = { maxRetriesPerRequest: 1, enableOfflineQueue: true, lazyConnect: false };
  const publisher = new Redis(redisUrl, { ...connectionOptions, connectionName: 'offzero-realtime-pub' });
  const subscriber = new Redis(redisUrl, { ...connectionOptions, connectionName: 'offzero-realtime-sub' });
  let closed = false;

  // An outage makes ioredis emit an error at every retry; log the first one and the recovery.
  for (const [role, connection] of [
    ['publisher', publisher],
    ['subscriber', subscriber],
  ] as const) {
    let failing = false;
    connection.on('error', (error: Error) => {
      if (failing || closed) return;
      failing = true;
      log.warn({ err: error, role }, 'redis unavailable (realtime events); retrying');
    });
    connection.on('ready', () => {
      if (!failing) return;
      failing = false;
      log.info({ role }, 'redis reachable again (realtime events)');
    });
  }

  subscriber.on('message', (messageChannel: string, message: string) => {
    if (messageChannel !== channel) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      log.warn({ channel }, 'ignored a malformed realtime message (not JSON)');
      return;
    }
    const event = isRecord(parsed) ? parseRealtimeEvent(parsed.event) : null;
    if (!isRecord(parsed) || typeof parsed.userId !== 'string' || parsed.userId === '' || !event) {
      log.warn({ channel }, 'ignored a malformed realtime message');
      return;
    }
    listeners.emit(parsed.userId, event);
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

  return {
    async publish(userId, event) {
      if (closed) return;
      let message: string;
      try {
        message = JSON.stringify({ userId, event });
      } catch (error) {
        log.error({ err: error, eventType: event.type }, 'realtime event is not serialisable; dropped');
        return;
      }
      try {
        await publisher.publish(channel, message);
      } catch (error) {
        // Redis is down: this process's own sockets still hear it; other processes miss it.
        log.warn({ err: error, eventType: event.type }, 'could not publish a realtime event through redis');
        listeners.emit(userId, event);
      }
    },
    subscribe(listener) {
      return listeners.add(listener);
    },
    ready() {
      return subscribed;
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await Promise.all([shutdown(subscriber), shutdown(publisher)]);
    },
  };
}
