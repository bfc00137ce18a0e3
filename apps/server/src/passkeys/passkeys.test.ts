import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passkeys, users } from '../db/schema';
import { PRODUCTION_TEST_ENV } from '../test/production-env';
import { latestCode, logIn, registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { registerPasskey, requestWithStepUp, siteOf, stepUp, withStepUp } from '../test/passkey-helpers';
import { SoftAuthenticator, stepUpHeader } from '../test/soft-authenticator';
import { createTestApp, type TestApp } from '../test/test-app';

/**
 * Passkeys through the API (docs/design.md, "Passkeys"): registration checked against PUBLIC_URL's
 * origin and RP id, the list, rename and removal, signing in with a passkey alone, the signature
 * counter, and an admin's passkey (login, second factor, never a customer's account). The software
 * authenticator builds real WebAuthn responses, so @simplewebauthn verifies real signatures.
 */

let t: TestApp;
let alice: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://offzero.example' });
  alice = await registerCustomer(t, 'alice.passkeys@example.com');
  bob = await registerCustomer(t, 'bob.passkeys@example.com');
});
afterAll(async () => t.close());

async function registrationOptions(who: RegisteredCustomer, name = 'Phone') {
  const response = await t.request({
    method: 'POST',
    url: '/api/passkeys/registration/options',
    headers: who.auth,
    payload: { name },
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ options: { challenge: string; rp: { id: string }; user: { id: string } } }>()
    .options;
}

const verifyRegistration = (who: RegisteredCustomer, response: unknown) =>
  t.request({
    method: 'POST',
    url: '/api/passkeys/registration/verify',
    headers: who.auth,
    payload: { response },
  });

async function loginWith(authenticator: SoftAuthenticator, email?: string) {
  const options = await t.request({
    method: 'POST',
    url: '/api/auth/passkey/options',
    payload: email ? { email } : {},
  });
  expect(options.statusCode).toBe(200);
  const { options: request } = options.json<{
    options: { challenge: string; allowCredentials: unknown[] };
  }>();
  expect(request.allowCredentials).toEqual([]);
  return t.request({
    method: 'POST',
    url: '/api/auth/passkey/verify',
    payload: { response: authenticator.assert(request, siteOf(t)) },
  });
}

describe('registration', () => {
  it('derives the relying party from PUBLIC_URL and asks for a discoverable, verified passkey', async () => {
    const options = await registrationOptions(alice);
    expect(options.rp.id).toBe('offzero.example');
    expect(options).toMatchObject({
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
  });

  it('refuses a response made for another origin, another RP id, or without user verification', async () => {
    const wrongOrigin = new SoftAuthenticator().register(await registrationOptions(alice), {
      origin: 'https://offzero.example.evil.com',
      rpId: 'offzero.example',
    });
    const wrongRp = new SoftAuthenticator().register(await registrationOptions(alice), {
      origin: 'https://offzero.example',
      rpId: 'evil.example',
    });
    const unverified = new SoftAuthenticator({ userVerified: false }).register(
      await registrationOptions(alice),
      siteOf(t),
    );
    for (const response of [wrongOrigin, wrongRp, unverified]) {
      const answer = await verifyRegistration(alice, response);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({
        message: 'This passkey could not be registered. Start again from Settings.',
      });
    }
    const list = await t.request({ method: 'GET', url: '/api/passkeys', headers: alice.auth });
    expect(list.json<{ passkeys: unknown[] }>().passkeys).toHaveLength(0);
  });

  it("refuses another customer's challenge and a challenge used twice", async () => {
    const options = await registrationOptions(alice);
    const response = new SoftAuthenticator().register(options, siteOf(t));
    expect((await verifyRegistration(bob, response)).statusCode).toBe(400);
    expect((await verifyRegistration(alice, response)).statusCode).toBe(200);
    const again = new SoftAuthenticator().register(options, siteOf(t));
    expect((await verifyRegistration(alice, again)).statusCode).toBe(400);
    // That passkey now guards alice's changes; this file's other tests use their own customers.
  });
});

describe('list, rename, remove', () => {
  let carol: RegisteredCustomer;
  let key: { authenticator: SoftAuthenticator; id: string };
  beforeAll(async () => {
    carol = await registerCustomer(t, 'carol.passkeys@example.com');
    key = await registerPasskey(t, carol, 'Laptop');
  });

  it('lists and renames the customer’s own passkeys; another customer’s id answers 404', async () => {
    const list = await t.request({ method: 'GET', url: '/api/passkeys', headers: carol.auth });
    expect(list.json()).toMatchObject({ passkeys: [{ id: key.id, name: 'Laptop' }], payoutHoldUntil: null });
    const renamed = await t.request({
      method: 'PATCH',
      url: `/api/passkeys/${key.id}`,
      headers: carol.auth,
      payload: { name: 'Work laptop' },
    });
    expect(renamed.json()).toMatchObject({ passkey: { name: 'Work laptop' } });
    for (const request of [
      { method: 'PATCH' as const, payload: { name: 'Mine now' } },
      { method: 'DELETE' as const },
    ]) {
      const foreign = await t.request({ ...request, url: `/api/passkeys/${key.id}`, headers: bob.auth });
      expect(foreign.statusCode).toBe(404);
    }
    const blank = await t.request({
      method: 'PATCH',
      url: `/api/passkeys/${key.id}`,
      headers: carol.auth,
      payload: { name: '  ' },
    });
    expect(blank.statusCode).toBe(400);
  });

  it('needs the passkey itself to add another one', async () => {
    const refused = await t.request({
      method: 'POST',
      url: '/api/passkeys/registration/options',
      headers: carol.auth,
      payload: { name: 'Thief' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'PASSKEY_STEP_UP_REQUIRED',
      message: 'Confirm this change with your passkey.',
    });
    const second = await registerPasskey(
      t,
      carol,
      'Phone',
      await stepUp(t, carol, key.authenticator, 'passkey.add', {}),
    );
    const removed = await requestWithStepUp(
      t,
      carol,
      key.authenticator,
      { action: 'passkey.remove', details: { id: second.id } },
      { method: 'DELETE', url: `/api/passkeys/${second.id}` },
    );
    expect(removed.statusCode).toBe(200);
  });

  it('removes the last passkey only with an assertion made for removing that passkey', async () => {
    const bare = await t.request({ method: 'DELETE', url: `/api/passkeys/${key.id}`, headers: carol.auth });
    expect(bare.statusCode).toBe(403);
    const forAnother = await stepUp(t, carol, key.authenticator, 'passkey.remove', {
      id: '00000000-0000-4000-8000-000000000000',
    });
    const wrong = await t.request({
      method: 'DELETE',
      url: `/api/passkeys/${key.id}`,
      headers: withStepUp(carol, forAnother),
    });
    expect(wrong.statusCode).toBe(403);
    const removed = await requestWithStepUp(
      t,
      carol,
      key.authenticator,
      { action: 'passkey.remove', details: { id: key.id } },
      { method: 'DELETE', url: `/api/passkeys/${key.id}` },
    );
    expect(removed.statusCode).toBe(200);
    const list = await t.request({ method: 'GET', url: '/api/passkeys', headers: carol.auth });
    expect(list.json<{ passkeys: unknown[] }>().passkeys).toEqual([]);
    const mail = await t.app.inject({
      method: 'GET',
      url: `/api/dev/outbox?to=${encodeURIComponent(carol.email)}`,
    });
    expect(mail.body).toContain('A passkey was removed from your OffZero account');
  });
});

describe('signing in with a passkey', () => {
  let dave: RegisteredCustomer;
  let key: { authenticator: SoftAuthenticator; id: string };
  beforeAll(async () => {
    dave = await registerCustomer(t, 'dave.passkeys@example.com');
    key = await registerPasskey(t, dave);
  });

  it('signs in with the passkey alone, with the same answer as an e-mail code login', async () => {
    const answer = await loginWith(key.authenticator);
    expect(answer.statusCode).toBe(200);
    const body = answer.json<{ message: string; token: string; user: { _id: string; role: string } }>();
    expect(body).toMatchObject({ message: 'Logged in.', user: { _id: dave.userId, role: 'customer' } });
    const list = await t.request({
      method: 'GET',
      url: '/api/passkeys',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(list.json()).toMatchObject({ passkeys: [{ id: key.id }] });
    expect(list.json<{ passkeys: { lastUsedAt: string | null }[] }>().passkeys[0]!.lastUsedAt).not.toBeNull();
  });

  it('signs in when the e-mail typed is the passkey’s account, and refuses another account’s passkey', async () => {
    expect((await loginWith(key.authenticator, dave.email)).statusCode).toBe(200);
    expect((await loginWith(key.authenticator, bob.email)).statusCode).toBe(401);
  });

  it('refuses a replayed assertion and a signature counter that goes back (a cloned key)', async () => {
    const options = await t.request({ method: 'POST', url: '/api/auth/passkey/options', payload: {} });
    const assertion = key.authenticator.assert(
      options.json<{ options: { challenge: string } }>().options,
      siteOf(t),
    );
    const first = await t.request({
      method: 'POST',
      url: '/api/auth/passkey/verify',
      payload: { response: assertion },
    });
    expect(first.statusCode).toBe(200);
    const replay = await t.request({
      method: 'POST',
      url: '/api/auth/passkey/verify',
      payload: { response: assertion },
    });
    expect(replay.statusCode).toBe(401);
    key.authenticator.signCount -= 2;
    const cloned = await loginWith(key.authenticator);
    expect(cloned.statusCode).toBe(401);
    expect(cloned.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    key.authenticator.signCount += 5;
    expect((await loginWith(key.authenticator)).statusCode).toBe(200);
  });

  it('refuses an unknown credential and an assertion signed by another key', async () => {
    expect((await loginWith(new SoftAuthenticator())).statusCode).toBe(401);
    const options = await t.request({ method: 'POST', url: '/api/auth/passkey/options', payload: {} });
    const forged = new SoftAuthenticator().assert(
      options.json<{ options: { challenge: string } }>().options,
      siteOf(t),
    );
    const answer = await t.request({
      method: 'POST',
      url: '/api/auth/passkey/verify',
      payload: { response: { ...forged, id: key.authenticator.id, rawId: key.authenticator.id } },
    });
    expect(answer.statusCode).toBe(401);
  });

  it('keeps the counter in the database: a row set ahead refuses the next assertion', async () => {
    await t.database.db.update(passkeys).set({ signCount: 1_000_000 }).where(eq(passkeys.id, key.id));
    expect((await loginWith(key.authenticator)).statusCode).toBe(401);
    await t.database.db.update(passkeys).set({ signCount: 0 }).where(eq(passkeys.id, key.id));
  });
});

describe("an admin's passkey", () => {
  let admin: RegisteredCustomer;
  let key: { authenticator: SoftAuthenticator; id: string };
  beforeAll(async () => {
    admin = await logIn(t, 'admin@offzero.local');
    key = await registerPasskey(t, admin, 'Security key');
  });

  it('is the second factor instead of TOTP after the e-mail code', async () => {
    await t.request({ method: 'POST', url: '/api/user/login-otp/send', payload: { email: admin.email } });
    const first = await t.request({
      method: 'POST',
      url: '/api/user/login-otp/verify',
      payload: { email: admin.email, code: await latestCode(t, admin.email) },
    });
    const { mfaRequired, mfaToken } = first.json<{ mfaRequired: boolean; mfaToken: string }>();
    expect(mfaRequired).toBe(true);
    const options = await t.request({
      method: 'POST',
      url: '/api/user/login-mfa/passkey/options',
      payload: { mfaToken },
    });
    expect(options.statusCode).toBe(200);
    const assertion = key.authenticator.assert(
      options.json<{ options: { challenge: string } }>().options,
      siteOf(t),
    );
    // Another step's token cannot carry this assertion.
    const otherToken = await t.request({
      method: 'POST',
      url: '/api/user/login-mfa/passkey/verify',
      payload: { mfaToken: 'not-the-token', response: assertion },
    });
    expect(otherToken.statusCode).toBe(401);
    const session = await t.request({
      method: 'POST',
      url: '/api/user/login-mfa/passkey/verify',
      payload: { mfaToken, response: assertion },
    });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ user: { role: 'admin' } });
    const again = await t.request({
      method: 'POST',
      url: '/api/user/login-mfa/passkey/verify',
      payload: { mfaToken, response: assertion },
    });
    expect(again.statusCode).toBe(401);
  });

  it('signs in the admin alone, never a customer account', async () => {
    const alone = await loginWith(key.authenticator);
    expect(alone.json()).toMatchObject({ user: { _id: admin.userId, role: 'admin' } });
    const asCustomer = await loginWith(key.authenticator, bob.email);
    expect(asCustomer.statusCode).toBe(401);
  });

  it("never confirms a customer's change, nor a customer's passkey an admin's", async () => {
    const erin = await registerCustomer(t, 'erin.passkeys@example.com');
    const erinKey = await registerPasskey(t, erin);
    const details = { label: 'Cold', address: 'tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl' };
    const { options } = (
      await t.request({
        method: 'POST',
        url: '/api/step-up/options',
        headers: erin.auth,
        payload: { action: 'payout-address.add', details },
      })
    ).json<{ options: { challenge: string } }>();
    const byAdmin = key.authenticator.assert(options, siteOf(t));
    const answer = await t.request({
      method: 'POST',
      url: '/api/payout-addresses',
      headers: { ...erin.auth, 'x-step-up': stepUpHeader(byAdmin) },
      payload: details,
    });
    expect(answer.statusCode).toBe(403);
    const adminOptions = (
      await t.request({
        method: 'POST',
        url: '/api/step-up/options',
        headers: admin.auth,
        payload: { action: 'passkey.add', details: {} },
      })
    ).json<{ options: { challenge: string } }>().options;
    const byCustomer = erinKey.authenticator.assert(adminOptions, siteOf(t));
    const refused = await t.request({
      method: 'POST',
      url: '/api/passkeys/registration/options',
      headers: { ...admin.auth, 'x-step-up': stepUpHeader(byCustomer) },
      payload: { name: 'Spare' },
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('at once', () => {
  it('one assertion sent twice at the same moment signs in once', async () => {
    const frank = await registerCustomer(t, 'frank.passkeys@example.com');
    const key = await registerPasskey(t, frank);
    const options = await t.request({ method: 'POST', url: '/api/auth/passkey/options', payload: {} });
    const assertion = key.authenticator.assert(
      options.json<{ options: { challenge: string } }>().options,
      siteOf(t),
    );
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        t.request({ method: 'POST', url: '/api/auth/passkey/verify', payload: { response: assertion } }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401, 401]);
  });
});

describe('an admin with a passkey alone, in production', () => {
  let p: TestApp;
  beforeAll(async () => {
    p = await createTestApp({ ...PRODUCTION_TEST_ENV, PUBLIC_URL: 'https://offzero.example' });
  });
  afterAll(async () => p.close());

  it('has a second factor: the back office answers', async () => {
    const [row] = await p.database.db
      .insert(users)
      .values({ email: 'ops@offzero.example', emailVerified: true })
      .returning();
    const { token } = await p.app.sessions.issue(row!.id);
    const admin: RegisteredCustomer = {
      token,
      userId: row!.id,
      email: row!.email,
      phone: '',
      auth: { authorization: `Bearer ${token}` },
    };
    const before = await p.app.inject({ method: 'GET', url: '/api/admin/queue', headers: admin.auth });
    expect(before.json()).toMatchObject({ code: 'MFA_ENROLMENT_REQUIRED' });
    await registerPasskey(p, admin, 'Security key');
    const status = await p.app.inject({ method: 'GET', url: '/api/admin/mfa', headers: admin.auth });
    expect(status.json()).toEqual({ enrolled: true, required: true, totp: false });
    const after = await p.app.inject({ method: 'GET', url: '/api/admin/queue', headers: admin.auth });
    expect(after.statusCode).toBe(200);
  });
});
