import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyRequest } from 'fastify';
import { decodeJwt, SignJWT } from 'jose';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, type ClientOptions } from 'ws';
import type { SessionService } from '../auth/sessions';
import { registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import {
  createMemoryEventBus,
  createRedisEventBus,
  type EventBus,
  type EventBusLogger,
  type RealtimeEvent,
} from './event-bus';
import { realtimeRoutes, type RealtimeOptions } from './realtime.routes';
import { sampleOrder } from './sample-events';

const REDIS_URL = process.env.REDIS_URL;
/** No single wait in this file lasts longer than this. */
const STEP_MS = 5_000;

function within<T>(promise: Promise<T>, what: string, ms = STEP_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<T>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

interface Closed {
  code: number;
  reason: string;
}

/** A WebSocket client as the web app would open it, with its messages queued for the test to read. */
interface Client {
  socket: WebSocket;
  send(value: unknown): void;
  next(): Promise<unknown>;
  /** Resolves with the close code and reason. */
  closed: Promise<Closed>;
  /** Messages received and not yet read with next(). */
  unread: unknown[];
}

const clients: Client[] = [];

async function connect(url: string, options: ClientOptions = {}): Promise<Client> {
  const socket = new WebSocket(url, options);
  const unread: unknown[] = [];
  const waiting: ((value: unknown) => void)[] = [];
  socket.on('message', (data) => {
    // The server only sends text frames, which ws hands over as one Buffer.
    const value: unknown = JSON.parse((data as Buffer).toString('utf8'));
    const waiter = waiting.shift();
    if (waiter) waiter(value);
    else unread.push(value);
  });
  const closed = new Promise<Closed>((resolve) => {
    socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  await within(
    new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    }),
    'the socket to open',
  );
  const client: Client = {
    socket,
    unread,
    closed,
    send: (value) => socket.send(typeof value === 'string' ? value : JSON.stringify(value)),
    next: () =>
      within(
        unread.length > 0 ? Promise.resolve(unread.shift()) : new Promise((resolve) => waiting.push(resolve)),
        'a message',
      ),
  };
  clients.push(client);
  return client;
}

async function signIn(url: string, token: string): Promise<Client> {
  const client = await connect(url);
  client.send({ type: 'auth', token });
  return client;
}

async function signedIn(url: string, customer: RegisteredCustomer): Promise<Client> {
  const client = await signIn(url, customer.token);
  expect(await client.next()).toEqual({ type: 'ready', userId: customer.userId });
  return client;
}

/** An app listening on a real port with the realtime routes on the given bus. */
async function listeningApp(
  bus: EventBus,
  options: RealtimeOptions = {},
): Promise<{ t: TestApp; url: string }> {
  const t = await createTestApp({}, undefined, { realtime: { bus, options } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return { t, url: `ws://127.0.0.1:${port}/api/realtime` };
}

afterEach(() => {
  for (const client of clients.splice(0)) client.socket.terminate();
});

const orderUpdate = (id: string): RealtimeEvent => ({
  type: 'order-updated',
  payload: { order: sampleOrder(id) },
});

describe('realtime channel', () => {
  const bus = createMemoryEventBus();
  let t: TestApp;
  let url: string;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;

  beforeAll(async () => {
    ({ t, url } = await listeningApp(bus, {
      authTimeoutMs: 500,
      reverifyIntervalMs: 200,
      maxSocketsPerUser: 3,
    }));
    ada = await registerCustomer(t, 'ada.realtime@example.com');
    bob = await registerCustomer(t, 'bob.realtime@example.com');
  });
  afterAll(async () => {
    await t?.close();
    await bus.close();
  });

  it('answers a plain HTTP request with 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/realtime' });
    expect(response.statusCode).toBe(404);
  });

  it('closes a socket that sends no auth message in time with 4401', async () => {
    const client = await connect(url);
    expect(await within(client.closed, 'the close')).toEqual({ code: 4401, reason: 'unauthorized' });
    expect(client.unread).toEqual([]);
  });

  it.each([
    ['a ping', { type: 'ping' }],
    ['text that is not JSON', 'hello'],
    ['an auth message without a token', { type: 'auth' }],
    ['an auth message with a token that is not a string', { type: 'auth', token: 42 }],
    ['a garbage token', { type: 'auth', token: 'not.a.jwt' }],
    ['a token with characters no JWT has', { type: 'auth', token: 'a b\r\nc' }],
  ])('closes with 4401 when the first message is %s', async (_label, first) => {
    const client = await connect(url);
    client.send(first);
    expect(await within(client.closed, 'the close')).toEqual({ code: 4401, reason: 'unauthorized' });
    expect(client.unread).toEqual([]);
  });

  it('closes with 4401 on a binary first message', async () => {
    const client = await connect(url);
    client.socket.send(Buffer.from(JSON.stringify({ type: 'auth', token: ada.token })));
    expect(await within(client.closed, 'the close')).toEqual({ code: 4401, reason: 'unauthorized' });
  });

  it('refuses an expired token and a token signed with another secret', async () => {
    const { sid } = decodeJwt(ada.token);
    const sign = (exp: number, secret: Uint8Array) =>
      new SignJWT({ _id: ada.userId, sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(exp - 3600)
        .setExpirationTime(exp)
        .sign(secret);
    const now = Math.floor(Date.now() / 1000);

    // The same claims with a future expiry are accepted, so it is the expiry that is refused below.
    const fresh = await signIn(url, await sign(now + 600, t.config.jwtSecret));
    expect(await fresh.next()).toEqual({ type: 'ready', userId: ada.userId });

    const expired = await signIn(url, await sign(now - 60, t.config.jwtSecret));
    expect(await within(expired.closed, 'the close')).toEqual({ code: 4401, reason: 'unauthorized' });
    const forged = await signIn(url, await sign(now + 600, randomBytes(32)));
    expect(await within(forged.closed, 'the close')).toEqual({ code: 4401, reason: 'unauthorized' });
  });

  it('ends the realtime session at logout and refuses the token afterwards', async () => {
    const carol = await registerCustomer(t, 'carol.realtime@example.com');
    const open = await signedIn(url, carol);
    const logout = await t.request({ method: 'POST', url: '/api/user/logout', headers: carol.auth });
    expect(logout.statusCode).toBe(200);
    // The periodic re-verification (every 200 ms here) notices the ended session.
    expect(await within(open.closed, 'the close')).toEqual({ code: 4401, reason: 'unauthorized' });

    const again = await signIn(url, carol.token);
    expect(await within(again.closed, 'the close')).toEqual({ code: 4401, reason: 'unauthorized' });
    expect(again.unread).toEqual([]);
  });

  it("pushes each customer's own events and never another customer's", async () => {
    const adaTab = await signedIn(url, ada);
    const adaPhone = await signedIn(url, ada);
    const bobTab = await signedIn(url, bob);
    const sold: RealtimeEvent = {
      type: 'new-transaction',
      payload: { amount: 0.0125, _id: 'order-ada', txn: 'cd'.repeat(32) },
    };
    await bus.publish(ada.userId, sold);
    await bus.publish(bob.userId, orderUpdate('bob-1'));
    await bus.publish(ada.userId, { type: 'kyc-updated', payload: { status: 'GREEN' } });
    await bus.publish(bob.userId, orderUpdate('bob-2'));
    await bus.publish('00000000-0000-4000-8000-000000000000', orderUpdate('nobody'));

    // Events reach a socket in publishing order, so a foreign event would show up between these.
    for (const adaSocket of [adaTab, adaPhone]) {
      expect(await adaSocket.next()).toEqual({ type: 'new-transaction', payload: sold.payload });
      expect(await adaSocket.next()).toEqual({ type: 'kyc-updated', payload: { status: 'GREEN' } });
    }
    expect(await bobTab.next()).toEqual(orderUpdate('bob-1'));
    expect(await bobTab.next()).toEqual(orderUpdate('bob-2'));

    // Nothing else was queued for anyone: a ping's answer is the very next message.
    for (const client of [adaTab, adaPhone, bobTab]) {
      client.send({ type: 'ping' });
      expect(await client.next()).toEqual({ type: 'pong' });
      expect(client.unread).toEqual([]);
    }
  });

  it('stops pushing to a socket once it is closed', async () => {
    const first = await signedIn(url, bob);
    first.socket.close();
    await within(first.closed, 'the close');
    const second = await signedIn(url, bob);
    await bus.publish(bob.userId, orderUpdate('after-close'));
    expect(await second.next()).toEqual(orderUpdate('after-close'));
  });

  it('answers ping with pong and ignores every other message after auth', async () => {
    const client = await signedIn(url, ada);
    client.send({ type: 'auth', token: 'another' });
    client.send({ type: 'subscribe', userId: bob.userId });
    client.send('not json');
    client.send([1, 2]);
    client.socket.send(Buffer.from('binary'));
    client.send({ type: 'ping' });
    expect(await client.next()).toEqual({ type: 'pong' });
    await bus.publish(bob.userId, orderUpdate('bob-secret'));
    await bus.publish(ada.userId, orderUpdate('ada-own'));
    expect(await client.next()).toEqual(orderUpdate('ada-own'));
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('closes with 1009 on a message over 4 kB, before and after auth', async () => {
    const authed = await signedIn(url, ada);
    authed.send({ type: 'ping', padding: 'x'.repeat(4 * 1024) });
    expect((await within(authed.closed, 'the close')).code).toBe(1009);

    const fresh = await connect(url);
    fresh.send({ type: 'auth', token: 'x'.repeat(5000) });
    expect((await within(fresh.closed, 'the close')).code).toBe(1009);
  });

  it('accepts a message of just under 4 kB', async () => {
    const client = await signedIn(url, ada);
    const ping = { type: 'ping', padding: '' };
    ping.padding = 'x'.repeat(4 * 1024 - JSON.stringify(ping).length);
    expect(JSON.stringify(ping).length).toBe(4 * 1024);
    client.send(ping);
    expect(await client.next()).toEqual({ type: 'pong' });
  });

  it('refuses more sockets per user than the limit with 4429', async () => {
    // A customer of their own, so that sockets of earlier tests still closing cannot count.
    const gus = await registerCustomer(t, 'gus.realtime@example.com');
    const open = [await signedIn(url, gus), await signedIn(url, gus), await signedIn(url, gus)];
    const extra = await signIn(url, gus.token);
    expect(await within(extra.closed, 'the close')).toEqual({ code: 4429, reason: 'too many connections' });
    open[0]!.socket.close();
    await within(open[0]!.closed, 'the close');
    // The server forgets the closed socket right after the close handshake; allow it that moment.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await signedIn(url, gus);
  });
});

/** Shutdown and heartbeats do not depend on the database: a bare app whose one session is 'good'. */
async function bareApp(options: RealtimeOptions = {}) {
  const app = Fastify({ logger: false });
  // As in the real app: route schemas are zod schemas.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const sessions = {
    async optionalUser(request: FastifyRequest) {
      return request.headers.authorization === 'Bearer good' ? { user: { id: 'user-1' } } : null;
    },
  } as unknown as SessionService;
  app.decorate('sessions', sessions);
  const bus = createMemoryEventBus();
  await app.register(realtimeRoutes(bus, options));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/realtime`;
  return { app, bus, url };
}

describe('realtime channel after an outage of the bus', () => {
  // A bus that reports a gap when the test says so, as the Redis bus does when Redis comes back.
  const inner = createMemoryEventBus();
  const gapListeners = new Set<() => void>();
  const bus: EventBus = {
    publish: (userId, event) => inner.publish(userId, event),
    subscribe: (listener) => inner.subscribe(listener),
    onGap: (listener) => {
      gapListeners.add(listener);
      return () => gapListeners.delete(listener);
    },
    close: () => inner.close(),
  };
  let t: TestApp;
  let url: string;

  beforeAll(async () => {
    ({ t, url } = await listeningApp(bus));
  });
  afterAll(async () => {
    await t?.close();
    await bus.close();
  });

  it('tells every signed-in socket to re-read its state, and a socket not signed in nothing', async () => {
    const ada = await registerCustomer(t, 'ada.resync@example.com');
    const bob = await registerCustomer(t, 'bob.resync@example.com');
    const adaSocket = await signedIn(url, ada);
    const bobSocket = await signedIn(url, bob);
    const stranger = await connect(url);

    expect(gapListeners.size).toBe(1);
    for (const listener of gapListeners) listener();

    expect(await adaSocket.next()).toEqual({ type: 'resync' });
    expect(await bobSocket.next()).toEqual({ type: 'resync' });
    // Events keep flowing after it.
    await bus.publish(ada.userId, orderUpdate('order-after-gap'));
    expect(await adaSocket.next()).toMatchObject({ type: 'order-updated' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stranger.unread).toEqual([]);
    expect(bobSocket.unread).toEqual([]);
  });
});

describe('realtime channel without a database', () => {
  it('closes every socket with 1001 when the app closes', async () => {
    const { app, bus, url } = await bareApp();
    try {
      const authed = await signIn(url, 'good');
      expect(await authed.next()).toEqual({ type: 'ready', userId: 'user-1' });
      const waiting = await connect(url);
      await within(app.close(), 'the app to close');
      expect(await within(authed.closed, 'the close')).toEqual({
        code: 1001,
        reason: 'server shutting down',
      });
      expect((await within(waiting.closed, 'the close')).code).toBe(1001);
      // Publishing after the close is harmless.
      await bus.publish('user-1', orderUpdate('late'));
    } finally {
      await app.close();
      await bus.close();
    }
  });

  it('drops a connection that stops answering heartbeat pings, and keeps one that answers', async () => {
    const { app, bus, url } = await bareApp({ heartbeatIntervalMs: 100 });
    try {
      const answering = await signIn(url, 'good');
      expect(await answering.next()).toEqual({ type: 'ready', userId: 'user-1' });
      // ws answers pings by itself unless told not to; this client plays a peer lost on the network.
      const silent = await connect(url, { autoPong: false });
      silent.send({ type: 'auth', token: 'good' });
      expect(await silent.next()).toEqual({ type: 'ready', userId: 'user-1' });
      expect((await within(silent.closed, 'the close')).code).toBe(1006);
      answering.send({ type: 'ping' });
      expect(await answering.next()).toEqual({ type: 'pong' });
      expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    } finally {
      await app.close();
      await bus.close();
    }
  });
});

describe.skipIf(!REDIS_URL)('realtime channel across processes (REDIS_URL)', () => {
  const silent = {
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
  } as unknown as EventBusLogger;
  const channel = `offzero:test:${randomBytes(6).toString('hex')}`;
  const busA = createRedisEventBus(REDIS_URL!, silent, { channel });
  const busB = createRedisEventBus(REDIS_URL!, silent, { channel });
  let a: { t: TestApp; url: string };
  let b: { t: TestApp; url: string };

  beforeAll(async () => {
    [a, b] = await Promise.all([listeningApp(busA), listeningApp(busB)]);
    await within(Promise.all([busA.ready(), busB.ready()]), 'both buses to subscribe');
  });
  afterAll(async () => {
    await Promise.all([a?.t.close(), b?.t.close()]);
    await Promise.all([busA.close(), busB.close()]);
  });

  it('delivers an event published in one process to the socket held by another, and only there', async () => {
    // Two processes, each with its own database here: each customer exists where their socket is.
    const erin = await registerCustomer(a.t, 'erin.realtime@example.com');
    const finn = await registerCustomer(b.t, 'finn.realtime@example.com');
    const erinSocket = await signedIn(a.url, erin);
    const finnSocket = await signedIn(b.url, finn);

    await busB.publish(erin.userId, orderUpdate('erin-1'));
    await busA.publish(finn.userId, orderUpdate('finn-1'));
    await busA.publish(erin.userId, orderUpdate('erin-2'));

    expect(await erinSocket.next()).toEqual(orderUpdate('erin-1'));
    expect(await erinSocket.next()).toEqual(orderUpdate('erin-2'));
    expect(await finnSocket.next()).toEqual(orderUpdate('finn-1'));
    for (const client of [erinSocket, finnSocket]) {
      client.send({ type: 'ping' });
      expect(await client.next()).toEqual({ type: 'pong' });
    }
  });
});
