import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { msUntil } from '../test/ms-until';
import { startAppProcess, type AppProcess } from '../test/app-process';
import { createTestApp, type TestApp } from '../test/test-app';
import { SESSION_CHECK_CACHE_MS } from './sessions';

/**
 * Checked sessions are remembered for under a second (auth/sessions.ts). The cache must never hand one
 * customer's answer to another, and a logout or a disabled account must take effect everywhere within
 * one second, also in a second server process whose cache still holds the session.
 */
const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';

const me = (t: TestApp, who: RegisteredCustomer, userId = who.userId) =>
  t.app.inject({ method: 'GET', url: `/api/user/${userId}`, headers: who.auth });
const orderList = (t: TestApp, who: RegisteredCustomer, userId = who.userId) =>
  t.app.inject({ method: 'GET', url: `/api/order/list?userId=${userId}&limit=5`, headers: who.auth });

/** The same calls, over HTTP to a server in another process. */
const meIn = (server: AppProcess, who: RegisteredCustomer) => server.get(`/api/user/${who.userId}`, who.auth);
const orderListIn = (server: AppProcess, who: RegisteredCustomer) =>
  server.get(`/api/order/list?userId=${who.userId}&limit=5`, who.auth);

/** Milliseconds until `request` answers 401; fails past two seconds. */
const msUntilRefused = (request: () => Promise<{ statusCode: number }>) =>
  msUntil(
    request,
    ({ statusCode }) => statusCode === 401,
    ({ statusCode }) => `still answered ${statusCode}`,
  );

describe('cached session checks in one process', () => {
  let t: TestApp;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;

  beforeAll(async () => {
    t = await createTestApp();
    ada = await registerCustomer(t, 'ada.session.cache@example.com');
    bob = await registerCustomer(t, 'bob.session.cache@example.com');
  });
  afterAll(async () => t?.close());

  it("never answers one customer's request with another customer's data", async () => {
    // Many requests of both at once, so each of them is answered from a warm cache.
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? ada : bob)).flatMap((who) => [
        me(t, who).then((response) => ({ who, response })),
        orderList(t, who).then((response) => ({ who, response })),
      ]),
    );
    for (const { who, response } of answers) {
      expect(response.statusCode).toBe(200);
      const other = who === ada ? bob : ada;
      expect(response.body).not.toContain(other.userId);
      expect(response.body).not.toContain(other.email);
    }
    for (const answer of answers.filter(({ response }) => response.json<{ user?: object }>().user)) {
      expect(answer.response.json<{ user: { email: string } }>().user.email).toBe(answer.who.email);
    }
    // With both sessions cached, neither reaches the other's account.
    expect((await me(t, ada, bob.userId)).statusCode).toBe(403);
    expect((await orderList(t, bob, ada.userId)).statusCode).toBe(403);
  });

  it("refuses a token forged from a cached one (another customer's id, the same signature)", async () => {
    expect((await me(t, ada)).statusCode).toBe(200);
    const [header, payload, signature] = ada.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, _id: bob.userId })).toString('base64url');
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/user/${bob.userId}`,
      headers: { authorization: `Bearer ${header}.${forged}.${signature}` },
    });
    expect(response.statusCode).toBe(401);
  });

  it("ends a session at logout at once in its process, and leaves the customer's other sessions", async () => {
    const other = await logIn(t, ada.email);
    expect((await me(t, ada)).statusCode).toBe(200);
    expect((await me(t, other)).statusCode).toBe(200);
    const logout = await t.request({ method: 'POST', url: '/api/user/logout', headers: ada.auth });
    expect(logout.statusCode).toBe(200);
    expect((await me(t, ada)).statusCode).toBe(401);
    expect((await me(t, other)).statusCode).toBe(200);
    expect((await me(t, bob)).statusCode).toBe(200);
  });
});

describe.runIf(IS_POSTGRES)('cached session checks in two processes on one PostgreSQL (and Redis)', () => {
  let a: TestApp;
  // A real second process: one in this process would share the session caches that `a` forgets.
  let b: AppProcess;
  let admin: RegisteredCustomer;
  // Both processes sign with one secret and share Redis (when the suite has one), as a deployment does.
  const shared = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  };

  beforeAll(async () => {
    a = await createTestApp(shared);
    b = await startAppProcess(a.databaseUrl!, shared);
    admin = await logIn(a, 'admin@offzero.local');
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await a?.close();
  });

  it('a logout in one process ends the session in the other within one second', async () => {
    const carol = await registerCustomer(a, 'carol.two.processes@example.com');
    // The other process has checked and cached the session.
    expect((await meIn(b, carol)).statusCode).toBe(200);
    expect((await meIn(b, carol)).statusCode).toBe(200);
    const logout = await a.request({ method: 'POST', url: '/api/user/logout', headers: carol.auth });
    expect(logout.statusCode).toBe(200);
    expect((await me(a, carol)).statusCode).toBe(401);
    const waited = await msUntilRefused(() => meIn(b, carol));
    expect(waited).toBeLessThanOrEqual(1_000);
    expect(SESSION_CHECK_CACHE_MS).toBeLessThan(1_000);
  });

  it('disabling an account in one process ends its sessions in the other within one second', async () => {
    const dan = await registerCustomer(a, 'dan.two.processes@example.com');
    expect((await orderListIn(b, dan)).statusCode).toBe(200);
    const disabled = await a.request({
      method: 'POST',
      url: `/api/admin/users/${dan.userId}/disable`,
      headers: admin.auth,
      payload: { reason: 'Fraud report' },
    });
    expect(disabled.statusCode).toBe(200);
    expect((await orderList(a, dan)).statusCode).toBe(401);
    const waited = await msUntilRefused(() => orderListIn(b, dan));
    expect(waited).toBeLessThanOrEqual(1_000);
  });
});
