import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema';
import { latestCode, logIn, registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { createGoogleIdTokenVerifier } from './google-id-token';
import { SESSION_CHECK_CACHE_MS } from './sessions';
import { setTimeout as sleep } from 'node:timers/promises';

let t: TestApp;
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  t = await createTestApp();
  ada = await registerCustomer(t, 'ada.sessions@example.com');
  bob = await registerCustomer(t, 'bob.sessions@example.com');
});
afterAll(async () => t.close());

const getUser = (id: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/api/user/${id}`, headers });

describe('sessions', () => {
  it("refuses another customer's id with 403 and none of their data", async () => {
    const response = await getUser(bob.userId, ada.auth);
    expect(response.statusCode).toBe(403);
    expect(response.body).not.toContain('bob.sessions');
  });

  it('refuses a request without a token with 401', async () => {
    expect((await getUser(ada.userId, {})).statusCode).toBe(401);
  });

  it("refuses a token with alg 'none'", async () => {
    const [, payload] = ada.token.split('.');
    const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expect((await getUser(ada.userId, { authorization: `Bearer ${unsigned}` })).statusCode).toBe(401);
  });

  it('refuses a tampered token (payload changed to another user)', async () => {
    const [header, payload, signature] = ada.token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, _id: bob.userId })).toString('base64url');
    const response = await getUser(bob.userId, { authorization: `Bearer ${header}.${forged}.${signature}` });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a token signed with another secret', async () => {
    const token = await new SignJWT({ _id: ada.userId, sid: '00000000-0000-4000-8000-000000000000' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a different secret of more than thirty-two chars'));
    expect((await getUser(ada.userId, { authorization: `Bearer ${token}` })).statusCode).toBe(401);
  });

  it('refuses an expired token', async () => {
    const [, payload] = ada.token.split('.');
    const { sid } = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const expired = await new SignJWT({ _id: ada.userId, sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(t.config.jwtSecret);
    expect((await getUser(ada.userId, { authorization: `Bearer ${expired}` })).statusCode).toBe(401);
  });

  it('ends the token at logout, but not the other devices', async () => {
    const email = 'logout@example.com';
    const first = await registerCustomer(t, email);
    await t.request({ method: 'POST', url: '/api/user/login-otp/send', payload: { email } });
    const secondLogin = await t.request({
      method: 'POST',
      url: '/api/user/login-otp/verify',
      payload: { email, code: await latestCode(t, email) },
    });
    const second = { authorization: `Bearer ${secondLogin.json().token}` };
    expect(secondLogin.json().token).not.toBe(first.token);

    const logout = await t.request({ method: 'POST', url: '/api/user/logout', headers: first.auth });
    expect(logout.statusCode).toBe(200);
    expect((await getUser(first.userId, first.auth)).statusCode).toBe(401);
    expect(
      (await t.request({ method: 'POST', url: '/api/user/logout', headers: first.auth })).statusCode,
    ).toBe(401);
    expect((await getUser(first.userId, second)).statusCode).toBe(200);
  });

  it('ends every session of a disabled account and refuses its login', async () => {
    const email = 'disabled@example.com';
    const customer = await registerCustomer(t, email);
    expect((await getUser(customer.userId, customer.auth)).statusCode).toBe(200);
    // Disabled behind the app's back (no cache told): refused once a checked session's second is over.
    await t.database.db
      .update(users)
      .set({ disabledAt: new Date() })
      .where(sql`${users.id} = ${customer.userId}`);
    await sleep(SESSION_CHECK_CACHE_MS);
    expect((await getUser(customer.userId, customer.auth)).statusCode).toBe(401);
    // The login answer is the one anyone gets (docs/design.md), but no code is sent and none can be used.
    const login = await t.request({ method: 'POST', url: '/api/user/login-otp/send', payload: { email } });
    expect(login.statusCode).toBe(200);
    expect(login.json().message).toBe('If an account exists for this email, we sent a code.');
    const verify = await t.request({
      method: 'POST',
      url: '/api/user/login-otp/verify',
      payload: { email, code: '123456' },
    });
    expect(verify.statusCode).toBe(400);
  });

  it('marks admins in the user answer', async () => {
    const admin = await logIn(t, 'admin@offzero.local');
    const response = await getUser(admin.userId, admin.auth);
    expect(response.json().user.role).toBe('admin');
  });
});

describe('login', () => {
  it('signs in with an e-mail code and returns message, token and user', async () => {
    await t.request({ method: 'POST', url: '/api/user/login-otp/send', payload: { email: ada.email } });
    const response = await t.request({
      method: 'POST',
      url: '/api/user/login-otp/verify',
      payload: { email: 'ADA.sessions@example.com', code: await latestCode(t, ada.email) },
    });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json()).sort()).toEqual(['message', 'token', 'user']);
    expect(response.json().user._id).toBe(ada.userId);
  });

  it('answers an unknown e-mail exactly as a known one, and sends it nothing', async () => {
    await registerCustomer(t, 'known.login@example.com');
    const knownAgain = await t.request({
      method: 'POST',
      url: '/api/user/login-otp/send',
      payload: { email: 'known.login@example.com' },
    });
    const unknown = await t.request({
      method: 'POST',
      url: '/api/user/login-otp/send',
      payload: { email: 'nobody@example.com' },
    });
    expect(unknown.statusCode).toBe(200);
    expect(knownAgain.statusCode).toBe(200);
    expect(unknown.json()).toEqual(knownAgain.json());
    expect(unknown.json()).toEqual({ message: 'If an account exists for this email, we sent a code.' });
    const sink = await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=nobody%40example.com' });
    expect(sink.json().messages).toEqual([]);
    const guess = (email: string) =>
      t.request({ method: 'POST', url: '/api/user/login-otp/verify', payload: { email, code: '123456' } });
    const unknownGuess = await guess('nobody@example.com');
    expect(unknownGuess.statusCode).toBe(400);
    expect(unknownGuess.json()).toEqual((await guess('known.login@example.com')).json());
    expect(unknownGuess.json().message).toBe('That code is not right. You have 4 tries left.');
  });
});

describe('profile', () => {
  it('updates first and last name only', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/user/profile',
      headers: ada.auth,
      payload: { firstName: '  Ada ', lastName: 'Lovelace', email: ada.email },
    });
    expect(response.statusCode).toBe(200);
    const user = (await getUser(ada.userId, ada.auth)).json().user;
    expect(user).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: ada.email });
  });

  it('refuses an e-mail change, extra fields, over-long and control-character names', async () => {
    const attempts = [
      { firstName: 'Ada', lastName: 'L', email: 'other@example.com' },
      { firstName: 'Ada', lastName: 'L', phone_verified: true },
      { firstName: 'A'.repeat(61), lastName: 'L' },
      { firstName: 'Ada\u0000', lastName: 'L' },
      { firstName: 'Ada', lastName: 'L\u202e' },
      { firstName: '', lastName: 'L' },
    ];
    for (const payload of attempts) {
      const response = await t.request({
        method: 'POST',
        url: '/api/user/profile',
        headers: ada.auth,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const user = (await getUser(ada.userId, ada.auth)).json().user;
    expect(user.email).toBe(ada.email);
  });

  it('refuses a visitor (401)', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/user/profile',
      payload: { firstName: 'X', lastName: 'Y' },
    });
    expect(response.statusCode).toBe(401);
  });
});

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

describe('Google sign-in', () => {
  const clientId = 'offzero-test.apps.googleusercontent.com';
  let jwksServer: Server;
  let google: TestApp;
  let privateKey: SigningKey;
  let strangerKey: SigningKey;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    strangerKey = (await generateKeyPair('RS256')).privateKey;
    const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
    jwksServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    const { port } = jwksServer.address() as AddressInfo;
    const jwksUrl = `http://127.0.0.1:${port}/oauth2/v3/certs`;
    google = await createTestApp({}, undefined, {
      providers: {
        googleSignIn: { clientId, verifyIdToken: createGoogleIdTokenVerifier({ clientId, jwksUrl }) },
      },
    });
  });
  afterAll(async () => {
    await google.close();
    await new Promise((resolve) => jwksServer.close(resolve));
  });

  const idToken = (
    claims: Record<string, unknown>,
    options: { key?: SigningKey; aud?: string; iss?: string; exp?: number } = {},
  ) =>
    new SignJWT({
      email: 'grace@example.com',
      email_verified: true,
      given_name: 'Grace',
      family_name: 'Hopper',
      ...claims,
    })
      .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
      .setSubject((claims.sub as string) ?? 'google-subject-1')
      .setIssuer(options.iss ?? 'https://accounts.google.com')
      .setAudience(options.aud ?? clientId)
      .setIssuedAt()
      .setExpirationTime(options.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(options.key ?? privateKey);

  const signIn = async (credential: string) =>
    google.request({ method: 'POST', url: '/api/user/google/login', payload: { credential } });

  it('creates the account on first sign-in and signs in the same account next time', async () => {
    const first = await signIn(await idToken({}));
    expect(first.statusCode).toBe(200);
    expect(first.json().user).toMatchObject({
      email: 'grace@example.com',
      firstName: 'Grace',
      email_verified: true,
    });
    const second = await signIn(await idToken({ email: 'grace.new@example.com' }));
    expect(second.json().user._id).toBe(first.json().user._id);
  });

  it('links an existing e-mail account by Google subject id', async () => {
    const customer = await registerCustomer(google, 'linked@example.com');
    const response = await signIn(await idToken({ sub: 'google-subject-2', email: 'linked@example.com' }));
    expect(response.json().user._id).toBe(customer.userId);
  });

  it("refuses wrong audience, wrong issuer, expired, unverified e-mail and a stranger's signature", async () => {
    const bad = [
      await idToken({}, { aud: 'someone-else.apps.googleusercontent.com' }),
      await idToken({}, { iss: 'https://evil.example.com' }),
      await idToken({}, { exp: Math.floor(Date.now() / 1000) - 60 }),
      await idToken({ sub: 'google-subject-3', email: 'unverified@example.com', email_verified: false }),
      await idToken({ sub: 'google-subject-4' }, { key: strangerKey }),
      'not-a-token',
    ];
    for (const credential of bad) {
      const response = await signIn(credential);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Login failed!', code: 'UNAUTHENTICATED' });
    }
  });

  it('is unavailable when no Google client id is configured', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/user/google/login',
      payload: { credential: 'x' },
    });
    expect(response.statusCode).toBe(404);
  });
});
