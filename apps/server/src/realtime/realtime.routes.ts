import fastifyWebsocket from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { WebSocket, type RawData } from 'ws';
import { errorBodySchema } from '@offzero/shared/api/errors';
import {
  REALTIME_CLOSE,
  REALTIME_PATH,
  realtimeClientMessageSchema,
  realtimeServerMessageSchema,
  type RealtimeClientMessage,
  type RealtimeServerMessage,
} from '@offzero/shared/api/realtime';
import { AppError } from '../http/errors';
import type { EventBus, RealtimeEvent } from './event-bus';

/**
 * The realtime channel: `GET /api/realtime` as a WebSocket. Its messages are the shared contract's
 * (packages/shared/src/api/realtime), read and written through its schemas.
 *
 * Browsers cannot set headers on a WebSocket and tokens in URLs end up in logs, so the client
 * authenticates with its first message:
 *   client → `{"type":"auth","token":"<session JWT>"}` (within 5 s of opening)
 *   server → `{"type":"ready","userId":"…"}`
 * Anything else first, a bad / expired / revoked token, or silence closes the socket with 4401
 * `unauthorized`. Then the server pushes `{"type": <event type>, "payload": …}` for that user's events
 * only; the client may send `{"type":"ping"}` (answered `{"type":"pong"}`), everything else is ignored.
 * A message over 4 kB closes the socket with 1009. Sessions are checked again every minute, so a
 * logout or a disabled account ends the realtime session too (4401).
 * Since the token travels in a message and never in a cookie, another site cannot open an
 * authenticated socket for a visitor (no cross-site WebSocket hijacking).
 */

const DOCS_DESCRIPTION = [
  "The customer's own events, pushed as they happen (packages/shared/src/api/realtime.ts).",
  'The first message must be `{"type":"auth","token":"<session JWT>"}` within 5 s; the server answers',
  '`{"type":"ready","userId":"…"}` or closes with 4401. Then the server pushes',
  '`{"type":"new-transaction"|"order-updated"|"kyc-updated","payload":…}`; the client may send',
  '`{"type":"ping"}` (answered `{"type":"pong"}`). Close codes: 4401 session over (do not retry),',
  '4429 too many sockets, 1001 server shutting down, 1009 message over 4 kB, 1011 try again later.',
].join(' ');

export interface RealtimeOptions {
  /** How long a new socket may stay silent before it must have sent its auth message. */
  authTimeoutMs?: number;
  /** How often every open socket's session is verified again. */
  reverifyIntervalMs?: number;
  /** How often sockets are pinged (protocol-level); one that missed the previous pong is dropped. */
  heartbeatIntervalMs?: number;
  /** The largest message a client may send, in bytes. */
  maxMessageBytes?: number;
  /** Open sockets per user in this process; more are refused with 4429. */
  maxSocketsPerUser?: number;
}

export { REALTIME_PATH };
export const CLOSE_UNAUTHORIZED = REALTIME_CLOSE.unauthorized;
export const CLOSE_TOO_MANY_CONNECTIONS = REALTIME_CLOSE.tooManyConnections;
/** Standard codes: going away (server shutdown), message too big, internal error. */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_MESSAGE_TOO_BIG = 1009;
export const CLOSE_INTERNAL_ERROR = 1011;

const DEFAULTS: Required<RealtimeOptions> = {
  authTimeoutMs: 5_000,
  reverifyIntervalMs: 60_000,
  heartbeatIntervalMs: 30_000,
  maxMessageBytes: 4 * 1024,
  maxSocketsPerUser: 20,
};
/** A client that lets this much pile up unread is dropped rather than buffered without end. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
/** Shutdown waits this long for clients to answer the close handshake, then cuts them off. */
const SHUTDOWN_GRACE_MS = 2_000;
/** Sessions verified at once during a re-verification sweep. */
const VERIFY_CONCURRENCY = 10;

interface Connection {
  socket: WebSocket;
  /** Set once the auth message has been accepted. */
  userId: string | null;
  token: string | null;
  /** Answered the last heartbeat ping. */
  alive: boolean;
}

function textOf(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}

/** A message the contract allows a client to send, or null for anything else. */
function parseClientMessage(data: RawData, isBinary: boolean): RealtimeClientMessage | null {
  if (isBinary) return null;
  let value: unknown;
  try {
    value = JSON.parse(textOf(data));
  } catch {
    return null;
  }
  const parsed = realtimeClientMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The JSON text of one server message; typed so that only the contract's messages are sent. */
function serverMessage(message: RealtimeServerMessage): string {
  return JSON.stringify(message);
}

/** The user id of a live session token, or null; rejects only when the check itself failed. */
async function verifyToken(app: FastifyInstance, token: string): Promise<string | null> {
  // The session service reads bearer tokens from requests; this is the header it expects.
  const request = { headers: { authorization: `Bearer ${token}` } } as unknown as FastifyRequest;
  const signedIn = await app.sessions.optionalUser(request);
  return signedIn ? signedIn.user.id : null;
}

function closeUnauthorized(socket: WebSocket): void {
  if (socket.readyState === WebSocket.OPEN) socket.close(CLOSE_UNAUTHORIZED, 'unauthorized');
}

/** This process's open sockets, by socket and by signed-in user. */
interface ConnectionRegistry {
  connections: Map<WebSocket, Connection>;
  byUser: Map<string, Set<Connection>>;
  /** Sends a text frame; a client that is not reading is dropped instead. */
  send: (connection: Connection, text: string) => void;
  forget: (connection: Connection) => void;
}

function createConnectionRegistry(log: FastifyBaseLogger): ConnectionRegistry {
  const connections = new Map<WebSocket, Connection>();
  const byUser = new Map<string, Set<Connection>>();
  return {
    connections,
    byUser,
    send(connection, text) {
      const { socket } = connection;
      if (socket.readyState !== WebSocket.OPEN) return;
      if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        log.warn({ userId: connection.userId }, 'realtime client is not reading; dropped');
        socket.terminate();
        return;
      }
      socket.send(text);
    },
    forget(connection) {
      connections.delete(connection.socket);
      if (!connection.userId) return;
      const set = byUser.get(connection.userId);
      set?.delete(connection);
      if (set?.size === 0) byUser.delete(connection.userId);
    },
  };
}

/** Closes every socket whose session has ended since it authenticated. */
async function reverifySessions(app: FastifyInstance, connections: Iterable<Connection>): Promise<void> {
  const byToken = new Map<string, Connection[]>();
  for (const connection of connections) {
    if (!connection.token) continue;
    const list = byToken.get(connection.token) ?? [];
    list.push(connection);
    byToken.set(connection.token, list);
  }
  const tokens = [...byToken.keys()];
  for (let start = 0; start < tokens.length; start += VERIFY_CONCURRENCY) {
    await Promise.all(
      tokens.slice(start, start + VERIFY_CONCURRENCY).map(async (token) => {
        const group = byToken.get(token) ?? [];
        let userId: string | null;
        try {
          userId = await verifyToken(app, token);
        } catch (error) {
          // The database is unreachable: keep the sockets, try again next time.
          app.log.warn({ err: error }, 'could not re-verify a realtime session');
          return;
        }
        for (const connection of group) {
          if (userId === null || userId !== connection.userId) closeUnauthorized(connection.socket);
        }
      }),
    );
  }
}

function heartbeat(connections: Iterable<Connection>): void {
  for (const connection of connections) {
    if (!connection.alive) {
      connection.socket.terminate();
      continue;
    }
    connection.alive = false;
    if (connection.socket.readyState === WebSocket.OPEN) connection.socket.ping();
  }
}

/** Closes every socket as "going away", waits SHUTDOWN_GRACE_MS for the handshakes, then cuts them off. */
async function closeGoingAway(open: WebSocket[]): Promise<void> {
  const allClosed = Promise.all(
    open.map(
      (socket) =>
        new Promise<void>((resolve) => {
          if (socket.readyState === WebSocket.CLOSED) return resolve();
          socket.once('close', () => resolve());
          socket.close(CLOSE_GOING_AWAY, 'server shutting down');
        }),
    ),
  );
  let graceTimer: NodeJS.Timeout | undefined;
  await Promise.race([
    allClosed,
    new Promise<void>((resolve) => {
      graceTimer = setTimeout(resolve, SHUTDOWN_GRACE_MS);
    }),
  ]);
  clearTimeout(graceTimer);
  for (const socket of open) if (socket.readyState !== WebSocket.CLOSED) socket.terminate();
}

/** A new socket: its auth message first (within `authTimeoutMs`), then pings. */
function acceptSocket(
  app: FastifyInstance,
  registry: ConnectionRegistry,
  settings: Required<RealtimeOptions>,
  socket: WebSocket,
  request: FastifyRequest,
): void {
  const { byUser, send } = registry;
  const connection: Connection = { socket, userId: null, token: null, alive: true };
  registry.connections.set(socket, connection);
  let state: 'waiting' | 'verifying' | 'ready' = 'waiting';
  const authTimer = setTimeout(() => closeUnauthorized(socket), settings.authTimeoutMs);

  socket.on('pong', () => {
    connection.alive = true;
  });
  socket.on('close', () => {
    clearTimeout(authTimer);
    registry.forget(connection);
  });

  async function authenticate(data: RawData, isBinary: boolean): Promise<void> {
    const message = parseClientMessage(data, isBinary);
    if (message?.type !== 'auth') return closeUnauthorized(socket);
    const token = message.token;
    let userId: string | null;
    try {
      userId = await verifyToken(app, token);
    } catch (error) {
      request.log.error({ err: error }, 'could not verify a realtime session');
      if (socket.readyState === WebSocket.OPEN) socket.close(CLOSE_INTERNAL_ERROR, 'try again later');
      return;
    }
    if (socket.readyState !== WebSocket.OPEN) return;
    if (!userId) return closeUnauthorized(socket);

    const set = byUser.get(userId) ?? new Set<Connection>();
    if (set.size >= settings.maxSocketsPerUser) {
      socket.close(CLOSE_TOO_MANY_CONNECTIONS, 'too many connections');
      return;
    }
    set.add(connection);
    byUser.set(userId, set);
    connection.userId = userId;
    connection.token = token;
    state = 'ready';
    send(connection, serverMessage({ type: 'ready', userId }));
  }

  socket.on('message', (data, isBinary) => {
    if (state === 'waiting') {
      state = 'verifying';
      clearTimeout(authTimer);
      void authenticate(data, isBinary);
      return;
    }
    // Messages sent before the answer to the auth message are ignored, like any unknown message.
    if (state !== 'ready') return;
    if (parseClientMessage(data, isBinary)?.type === 'ping') {
      send(connection, serverMessage({ type: 'pong' }));
    }
  });
}

export function realtimeRoutes(bus: EventBus, options: RealtimeOptions = {}): FastifyPluginAsync {
  const settings = { ...DEFAULTS, ...options };

  return async (app) => {
    const registry = createConnectionRegistry(app.log);
    const { connections, byUser, send } = registry;

    const unsubscribe = bus.subscribe((userId: string, event: RealtimeEvent) => {
      const set = byUser.get(userId);
      if (!set) return;
      // The bus has checked the event against the contract, so it is plain JSON.
      const text = serverMessage(event);
      for (const connection of set) send(connection, text);
    });
    // Events published elsewhere while this process was cut off never reached its sockets: every
    // signed-in client is told to read its state again.
    const stopGapWatch = bus.onGap(() => {
      const text = serverMessage({ type: 'resync' });
      let told = 0;
      for (const set of byUser.values()) {
        for (const connection of set) {
          send(connection, text);
          told += 1;
        }
      }
      app.log.info({ sockets: told }, 'realtime resumed after an outage; clients told to re-read');
    });

    let sweeping = false;
    const sweep = async () => {
      if (sweeping) return;
      sweeping = true;
      try {
        await reverifySessions(app, connections.values());
      } finally {
        sweeping = false;
      }
    };
    const reverifyTimer = setInterval(() => void sweep(), settings.reverifyIntervalMs);
    const heartbeatTimer = setInterval(() => heartbeat(connections.values()), settings.heartbeatIntervalMs);
    reverifyTimer.unref();
    heartbeatTimer.unref();

    // Added before @fastify/websocket registers its own preClose, so this one runs first and clients
    // get a proper "going away" rather than a bare close.
    app.addHook('preClose', async () => {
      clearInterval(reverifyTimer);
      clearInterval(heartbeatTimer);
      unsubscribe();
      stopGapWatch();
      await closeGoingAway([...connections.keys()]);
    });

    await app.register(fastifyWebsocket, {
      options: { maxPayload: settings.maxMessageBytes },
      errorHandler(error, socket, request) {
        // Mostly clients breaking the protocol (e.g. an oversized message, which ws already answers
        // with 1009); nothing the server did wrong.
        request.log.info({ err: error }, 'realtime socket error');
        if (socket.readyState === WebSocket.OPEN) socket.terminate();
      },
    });

    // `handler` answers a plain HTTP request and `wsHandler` the upgrade; unlike `websocket: true`, this
    // keeps the route in the OpenAPI document, where its messages are described.
    app.route({
      method: 'GET',
      url: REALTIME_PATH,
      config: { rateLimit: { max: 120, timeWindow: '1 minute' } },
      schema: {
        summary: 'The realtime channel (WebSocket)',
        description: DOCS_DESCRIPTION,
        response: {
          101: realtimeServerMessageSchema.describe(
            'Switching Protocols. Then every text frame from the server is one of these JSON messages.',
          ),
          404: errorBodySchema.describe('A plain HTTP request: open this path as a WebSocket.'),
        },
      },
      handler: async () => {
        throw new AppError('NOT_FOUND', `Open ${REALTIME_PATH} as a WebSocket.`);
      },
      wsHandler: (socket, request) => acceptSocket(app, registry, settings, socket, request),
    });
  };
}
