import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminMfa, otpCodes, users } from '../db/schema';
import { latestCode, logIn, registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { PRODUCTION_TEST_ENV } from '../test/production-env';
import { createTestApp, type TestApp } from '../test/test-app';
import { totpCode, totpStep } from './totp';

/** RFC 6238 appendix B (SHA-1): the 20-byte ASCII key "12345678901234567890". */
const RFC_KEY_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const RFC_VECTORS: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it('gives the RFC test vectors: 8 digits through the library, their last 6 from ours', () => {
    const secret = Secret.fromLatin1('12345678901234567890');
    expect(secret.base32).toBe(RFC_KEY_BASE32);
    for (const [seconds, expected] of RFC_VECTORS) {
      const at = new Date(seconds * 1000);
      expect(
        TOTP.generate({ secret, algorithm: 'SHA1', digits: 8, period: 30, timestamp: at.getTime() }),
      ).toBe(expected);
      expect(totpCode(RFC_KEY_BASE32, at)).toBe(expected.slice(-6));
      expect(totpStep(RFC_KEY_BASE32, expected.slice(-6), at)).toBe(Math.floor(seconds / 30));
    }
  });

  it('accepts one step of clock drift, not two', () => {
    const at = new Date(1234567890 * 1000);
    const code = totpCode(RFC_KEY_BASE32, at);
    expect(totpStep(RFC_KEY_BASE32, code, new Date(at.getTime() + 30_000))).not.toBeNull();
    expect(totpStep(RFC_KEY_BASE32, code, new Date(at.getTime() + 61_000))).toBeNull();
    expect(totpStep(RFC_KEY_BASE32, 'abcdef', at)).toBeNull();
  });
});

describe('admin two-factor authentication (demo)', () => {
  let t: TestApp;
  let admin: RegisteredCustomer;
  let secret: string;
  /** The codes used so far: each stays refused, as used within its window or as too old after it. */
  let enrolCode: string;
  let loginCode: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await logIn(t, 'admin@offzero.local');
  });
  afterAll(async () => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.request({ method: 'POST', url, payload, headers });

  /** A fresh login of the admin up to the second step (the e-mail code's resend wait skipped). */
  async function loginToSecondStep(): Promise<string> {
    await t.database.db
      .update(otpCodes)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(otpCodes.destination, 'admin@offzero.local'));
    await post('/api/user/login-otp/send', { email: 'admin@offzero.local' });
    const verified = await post('/api/user/login-otp/verify', {
      email: 'admin@offzero.local',
      code: await latestCode(t, 'admin@offzero.local'),
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({ mfaRequired: true });
    expect(verified.json().token).toBeUndefined();
    return verified.json().mfaToken as string;
  }

  it('does not require enrolment in demo mode', async () => {
    const status = await t.app.inject({ method: 'GET', url: '/api/admin/mfa', headers: admin.auth });
    expect(status.json()).toEqual({ enrolled: false, required: false, totp: false });
    const queue = await t.app.inject({ method: 'GET', url: '/api/admin/queue', headers: admin.auth });
    expect(queue.statusCode).toBe(200);
  });

  it('refuses a customer', async () => {
    const customer = await registerCustomer(t, 'mfa-customer@example.com');
    expect((await post('/api/admin/mfa/enroll', {}, customer.auth)).statusCode).toBe(403);
  });

  it('enrols with a base32 secret, stored encrypted, after a right code only', async () => {
    const enrol = await post('/api/admin/mfa/enroll', {}, admin.auth);
    expect(enrol.statusCode).toBe(200);
    ({ secret } = enrol.json());
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(enrol.json().otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('algorithm')).toBe('SHA1');
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');

    const [stored] = await t.database.db.select().from(adminMfa).where(eq(adminMfa.userId, admin.userId));
    expect(stored?.secretEncrypted).not.toContain(secret);

    const right = totpCode(secret, new Date());
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    expect((await post('/api/admin/mfa/verify', { code: wrong }, admin.auth)).statusCode).toBe(400);
    expect((await post('/api/admin/mfa/verify', { code: 'abc' }, admin.auth)).statusCode).toBe(400);
    expect((await post('/api/admin/mfa/verify', { code: right }, admin.auth)).statusCode).toBe(200);
    enrolCode = right;
    // Enrolled: a session alone cannot replace the secret.
    expect((await post('/api/admin/mfa/enroll', {}, admin.auth)).statusCode).toBe(409);
  });

  it('asks an enrolled admin for the second step, and gives the session for a right code once', async () => {
    const mfaToken = await loginToSecondStep();
    // The code used to enrol is spent: the next step's code is needed.
    const spent = await post('/api/user/login-mfa/verify', { mfaToken, code: enrolCode });
    expect(spent.statusCode).toBe(400);
    const next = totpCode(secret, new Date(Date.now() + 30_000));
    loginCode = next;
    const done = await post('/api/user/login-mfa/verify', { mfaToken, code: next });
    expect(done.statusCode).toBe(200);
    expect(done.json().user.role).toBe('admin');
    // The token is single use.
    const again = await post('/api/user/login-mfa/verify', { mfaToken, code: next });
    expect(again.statusCode).toBe(401);
  });

  it('refuses a code already used in its window, a made-up token, and too many tries', async () => {
    const mfaToken = await loginToSecondStep();
    const used = loginCode;
    expect((await post('/api/user/login-mfa/verify', { mfaToken, code: used })).statusCode).toBe(400);
    expect(
      (await post('/api/user/login-mfa/verify', { mfaToken: 'made-up-token', code: used })).statusCode,
    ).toBe(401);
    for (let i = 0; i < 4; i += 1) {
      expect((await post('/api/user/login-mfa/verify', { mfaToken, code: '000000' })).statusCode).toBe(400);
    }
    // Five tries spent: even a right code is refused now.
    const right = totpCode(secret, new Date(Date.now() - 30_000));
    expect((await post('/api/user/login-mfa/verify', { mfaToken, code: right })).statusCode).toBe(401);
  });

  it("refuses another admin's code on this admin's second step", async () => {
    const approver = await logIn(t, 'approver@offzero.local');
    const enrol = await post('/api/admin/mfa/enroll', {}, approver.auth);
    const approverSecret = enrol.json().secret as string;
    expect(
      (await post('/api/admin/mfa/verify', { code: totpCode(approverSecret, new Date()) }, approver.auth))
        .statusCode,
    ).toBe(200);
    const mfaToken = await loginToSecondStep();
    const approverCode = totpCode(approverSecret, new Date());
    expect((await post('/api/user/login-mfa/verify', { mfaToken, code: approverCode })).statusCode).toBe(400);
  });
});

describe('admin two-factor authentication (production)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(PRODUCTION_TEST_ENV);
  });
  afterAll(async () => t.close());

  it('answers no admin route before the admin has enrolled, then all of them', async () => {
    const [row] = await t.database.db
      .insert(users)
      .values({ email: 'ops@offzero.example', emailVerified: true })
      .returning();
    const { token } = await t.app.sessions.issue(row!.id);
    const auth = { authorization: `Bearer ${token}` };
    const before = await t.app.inject({ method: 'GET', url: '/api/admin/queue', headers: auth });
    expect(before.statusCode).toBe(403);
    expect(before.json()).toMatchObject({
      code: 'MFA_ENROLMENT_REQUIRED',
      message: 'Set up two-factor authentication first.',
    });
    const status = await t.app.inject({ method: 'GET', url: '/api/admin/mfa', headers: auth });
    expect(status.json()).toEqual({ enrolled: false, required: true, totp: false });

    const enrol = await t.request({ method: 'POST', url: '/api/admin/mfa/enroll', headers: auth });
    const code = totpCode(enrol.json().secret, new Date());
    const verified = await t.request({
      method: 'POST',
      url: '/api/admin/mfa/verify',
      headers: auth,
      payload: { code },
    });
    expect(verified.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/admin/queue', headers: auth });
    expect(after.statusCode).toBe(200);
  });
});
