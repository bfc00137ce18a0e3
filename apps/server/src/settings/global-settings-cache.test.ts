import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logIn, registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { buyOrderPayload } from '../test/buy-helpers';
import { msUntil } from '../test/ms-until';
import { startAppProcess, type AppProcess } from '../test/app-process';
import { createTestApp, type TestApp } from '../test/test-app';
import { GLOBAL_SETTINGS_CACHE_MS } from './global-settings-cache';

/**
 * An order save reads the global settings from a copy each process keeps for under a second
 * (settings/global-settings-cache.ts). An admin's change must still hold for the very next save in the
 * process that saved it, and everywhere within one second, also in a second server process whose copy
 * still holds the old settings.
 */
const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';
const RAISED_MINIMUM = 'Minimum order is $100.00';

type Settings = { order: Record<string, unknown> } & Record<string, unknown>;

const currentSettings = async (t: TestApp, admin: RegisteredCustomer): Promise<Settings> =>
  (await t.app.inject({ method: 'GET', url: '/api/admin/settings', headers: admin.auth })).json<{
    settings: Settings;
  }>().settings;

const putSettings = (t: TestApp, admin: RegisteredCustomer, settings: Settings) =>
  t.request({ method: 'PUT', url: '/api/admin/settings', headers: admin.auth, payload: settings });

/** A $50 buy, each of a different cent value so none answers a twin saved before it. */
let cents = 0;
async function nextBuy(t: TestApp, who: RegisteredCustomer) {
  cents += 1;
  return buyOrderPayload(t, who, 50 + cents / 100);
}

async function saveBuy(t: TestApp, who: RegisteredCustomer) {
  return t.request({
    method: 'POST',
    url: '/api/order/save',
    headers: who.auth,
    payload: await nextBuy(t, who),
  });
}

/** The same buy saved through the other process, over HTTP; null when it saved, else its message. */
async function saveBuyIn(other: AppProcess, priced: TestApp, who: RegisteredCustomer) {
  const answer = await other.post('/api/order/save', await nextBuy(priced, who), who.auth);
  return answer.statusCode === 200 ? null : (JSON.parse(answer.body) as { message: string }).message;
}

describe('the settings an order save reads, in one process', () => {
  let t: TestApp;
  let admin: RegisteredCustomer;
  let ada: RegisteredCustomer;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await logIn(t, 'admin@offzero.local');
    ada = await registerVerifiedCustomer(t, 'ada.settings.cache@example.com');
  });
  afterAll(async () => t?.close());

  it("applies an admin's change to the very next save", async () => {
    expect((await saveBuy(t, ada)).statusCode).toBe(200);
    const base = await currentSettings(t, admin);
    const raised = await putSettings(t, admin, { ...base, order: { ...base.order, min_order_size: 100 } });
    expect(raised.statusCode).toBe(200);
    try {
      const refused = await saveBuy(t, ada);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toBe(RAISED_MINIMUM);
    } finally {
      expect((await putSettings(t, admin, base)).statusCode).toBe(200);
    }
    expect((await saveBuy(t, ada)).statusCode).toBe(200);
  });
});

describe.runIf(IS_POSTGRES)('the settings an order save reads, in two processes on one PostgreSQL', () => {
  let a: TestApp;
  // A real second process: one in this process would share the copies that `a` forgets at once.
  let b: AppProcess;
  let admin: RegisteredCustomer;
  let bob: RegisteredCustomer;
  // Both processes sign with one secret and share Redis (when the suite has one), as a deployment does.
  const shared = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
  };

  beforeAll(async () => {
    a = await createTestApp(shared);
    b = await startAppProcess(a.databaseUrl!, shared);
    admin = await logIn(a, 'admin@offzero.local');
    bob = await registerVerifiedCustomer(a, 'bob.settings.cache@example.com');
  }, 60_000);
  afterAll(async () => {
    await b?.stop();
    await a?.close();
  });

  it('a change saved in one process holds in the other within one second', async () => {
    // The other process has read the settings and keeps its copy.
    expect(await saveBuyIn(b, a, bob)).toBeNull();
    const base = await currentSettings(a, admin);
    const raised = await putSettings(a, admin, { ...base, order: { ...base.order, min_order_size: 100 } });
    expect(raised.statusCode).toBe(200);
    const until = (message: string | null) =>
      msUntil(
        () => saveBuyIn(b, a, bob),
        (answer) => answer === message,
        (answer) => `still answered "${answer}"`,
      );
    try {
      expect((await saveBuy(a, bob)).json().message).toBe(RAISED_MINIMUM);
      expect(await until(RAISED_MINIMUM)).toBeLessThanOrEqual(1_000);
      expect(GLOBAL_SETTINGS_CACHE_MS).toBeLessThan(1_000);
    } finally {
      expect((await putSettings(a, admin, base)).statusCode).toBe(200);
    }
    // And back: the lowered minimum holds there within one second too.
    expect(await until(null)).toBeLessThanOrEqual(1_000);
  });
});
