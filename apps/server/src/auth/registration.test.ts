import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otpCodes, users } from '../db/schema';
import { latestCode, logIn, nextPhone, registerCustomer } from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { createOtpService } from './otp.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url, payload, headers });

describe('registration', () => {
  it('runs the four steps and signs the customer in with both contacts verified', async () => {
    const customer = await registerCustomer(t, 'ada@example.com', { phone: '+12025550101' });
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/user/${customer.userId}`,
      headers: customer.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toMatchObject({
      _id: customer.userId,
      email: 'ada@example.com',
      email_verified: true,
      phone_verified: true,
      phoneNumber: '+12025550101',
      role: 'customer',
    });
  });

  it('stores codes hashed, never as sent', async () => {
    await post('/api/verification/email/otp', { email: 'hash@example.com', purpose: 'new account' });
    const code = await latestCode(t, 'hash@example.com');
    const rows = await t.database.db
      .select()
      .from(otpCodes)
      .where(sql`${otpCodes.destination} = 'hash@example.com'`);
    expect(rows[0]?.codeHash).not.toContain(code);
    expect(rows[0]?.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses malformed e-mails and phones with the spec messages', async () => {
    for (const email of [
      '',
      'no-at-sign',
      'a@b',
      'spaces in@example.com',
      `${'x'.repeat(250)}@example.com`,
    ]) {
      const response = await post('/api/verification/email/otp', { email, purpose: 'new account' });
      expect(response.statusCode, email).toBe(400);
      expect(response.json().message).toContain('Enter a valid email');
    }
    for (const phone of ['', '12025550123', '+1202', '+1202555012345678', '+1 (202) 555-0123', 'phone']) {
      const response = await post('/api/verification/phone/otp', { email: 'x@example.com', phone });
      expect(response.statusCode, phone).toBe(400);
      expect(response.json().message).toContain('Provide a valid phone number');
    }
  });

  it('refuses an unknown referral code without using up the e-mail code', async () => {
    const email = 'badref@example.com';
    await post('/api/verification/email/otp', { email, purpose: 'new account' });
    const code = await latestCode(t, email);
    const refused = await post('/api/verification/verify/otp', { email, code, referralCode: 'nope' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/referral code does not exist/);
    const accepted = await post('/api/verification/verify/otp', { email, code });
    expect(accepted.statusCode).toBe(200);
  });

  it('records who referred a customer who registers with a referral code', async () => {
    const referrer = await registerCustomer(t, 'referrer@example.com');
    await t.database.db
      .update(users)
      .set({ referralCode: 'REFcode_1234-abc' })
      .where(sql`${users.id} = ${referrer.userId}`);
    const referred = await registerCustomer(t, 'referred@example.com', { referralCode: 'REFcode_1234-abc' });
    const [row] = await t.database.db
      .select()
      .from(users)
      .where(sql`${users.id} = ${referred.userId}`);
    expect(row?.referredByUserId).toBe(referrer.userId);
  });

  it('does not let anyone attach a phone to an account without the registration token', async () => {
    const email = 'victim@example.com';
    await post('/api/verification/email/otp', { email, purpose: 'new account' });
    await post('/api/verification/verify/otp', { email, code: await latestCode(t, email) });
    const noToken = await post('/api/verification/phone/otp', { email, phone: nextPhone() });
    expect(noToken.statusCode).toBe(401);
    const otherAccountsToken = await post('/api/verification/phone/otp', {
      email,
      phone: nextPhone(),
      registrationToken: 'eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6InZpY3RpbUBleGFtcGxlLmNvbSJ9.x',
    });
    expect(otherAccountsToken.statusCode).toBe(401);
  });

  it('refuses a phone already verified on another account', async () => {
    await registerCustomer(t, 'phone-owner@example.com', { phone: '+12025550177' });
    const email = 'phone-thief@example.com';
    await post('/api/verification/email/otp', { email, purpose: 'new account' });
    const verified = await post('/api/verification/verify/otp', { email, code: await latestCode(t, email) });
    const response = await post('/api/verification/phone/otp', {
      email,
      phone: '+12025550177',
      registrationToken: verified.json().registrationToken,
    });
    expect(response.statusCode).toBe(409);
  });
});

describe('one-time codes', () => {
  const sendRegistrationCode = (email: string) =>
    post('/api/verification/email/otp', { email, purpose: 'new account' });
  /**
   * Sends a code to `destination` until it differs from `other` (one time in a million it is equal by
   * chance, and a test comparing the two would prove nothing), and returns it. Each further send first
   * steps past the 10-second resend wait.
   */
  const sendUntilCodeDiffers = async (
    destination: string,
    other: string,
    send: () => Promise<{ statusCode: number }>,
  ) => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (attempt > 0) {
        await t.database.db
          .update(otpCodes)
          .set({ createdAt: sql`${otpCodes.createdAt} - interval '11 seconds'` })
          .where(sql`${otpCodes.destination} = ${destination}`);
      }
      expect((await send()).statusCode).toBe(200);
      const code = await latestCode(t, destination);
      if (code !== other) return code;
    }
    throw new Error(`three codes for ${destination} in a row equalled ${other}`);
  };
  const verifyEmail = (email: string, code: string) => post('/api/verification/verify/otp', { email, code });
  const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

  it('refuses a wrong code, then accepts the right one', async () => {
    const email = 'wrong@example.com';
    await sendRegistrationCode(email);
    const code = await latestCode(t, email);
    const refused = await verifyEmail(email, wrong(code));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('That code is not right. You have 4 tries left.');
    expect((await verifyEmail(email, code)).statusCode).toBe(200);
  });

  it('refuses a code that is not six digits', async () => {
    const email = 'digits@example.com';
    await sendRegistrationCode(email);
    const code = await latestCode(t, email);
    // The sent code with its last digit turned into a letter, one digit short, and one too many.
    for (const malformed of [`${code.slice(0, 5)}a`, code.slice(0, 5), `${code}0`]) {
      const response = await verifyEmail(email, malformed);
      expect(response.statusCode, malformed).toBe(400);
      expect(response.json().message, malformed).toBe('Check code: Enter the 6-digit code we sent you.');
    }
    // Refused for its form alone: no try was used up, and the code as sent still verifies.
    const [row] = await t.database.db
      .select({ attempts: otpCodes.attempts })
      .from(otpCodes)
      .where(sql`${otpCodes.destination} = ${email}`);
    expect(row?.attempts).toBe(0);
    expect((await verifyEmail(email, code)).statusCode).toBe(200);
  });

  it('refuses an expired code (older than 10 minutes)', async () => {
    const email = 'expired@example.com';
    await sendRegistrationCode(email);
    const code = await latestCode(t, email);
    await t.database.db
      .update(otpCodes)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(sql`${otpCodes.destination} = ${email}`);
    const response = await verifyEmail(email, code);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/expired or was already used/);
  });

  it('refuses a code used twice', async () => {
    const email = 'reused@example.com';
    const customer = await registerCustomer(t, email);
    expect(customer.token).toBeTruthy();
    await post('/api/user/login-otp/send', { email });
    const code = await latestCode(t, email);
    expect((await post('/api/user/login-otp/verify', { email, code })).statusCode).toBe(200);
    const again = await post('/api/user/login-otp/verify', { email, code });
    expect(again.statusCode).toBe(400);
  });

  it('refuses a code sent to another address', async () => {
    await sendRegistrationCode('first@example.com');
    const codeForFirst = await latestCode(t, 'first@example.com');
    // Codes are random: make sure the second address's own code is another one.
    await sendUntilCodeDiffers('second@example.com', codeForFirst, () =>
      sendRegistrationCode('second@example.com'),
    );
    const response = await verifyEmail('second@example.com', codeForFirst);
    expect(response.statusCode).toBe(400);
  });

  it('refuses a code issued for another purpose: a login code cannot verify an e-mail or a phone', async () => {
    const otp = createOtpService(t.database.db, t.config.jwtSecret);
    const loginCode = await otp.issue('login', 'purpose@example.com', '127.0.0.1');
    await expect(otp.verify('new-account', 'purpose@example.com', loginCode)).rejects.toThrow(
      /expired or was already used/,
    );
    await expect(otp.verify('phone', 'purpose@example.com', loginCode)).rejects.toThrow(
      /expired or was already used/,
    );
    // The code itself is good: the two refusals above were about its purpose.
    await expect(otp.verify('login', 'purpose@example.com', loginCode)).resolves.toBeUndefined();
    // A phone code cannot log in either, even for its own account.
    const phoneOwner = await registerCustomer(t, 'purpose-phone@example.com');
    const phoneCode = await latestCode(t, phoneOwner.phone);
    const loginCodeNow = await sendUntilCodeDiffers(phoneOwner.email, phoneCode, () =>
      post('/api/user/login-otp/send', { email: phoneOwner.email }),
    );
    const loginWithPhoneCode = await post('/api/user/login-otp/verify', {
      email: phoneOwner.email,
      code: phoneCode,
    });
    expect(loginWithPhoneCode.statusCode).toBe(400);
    // And the login code still works afterwards: the wrong try used one of its five.
    expect(
      (await post('/api/user/login-otp/verify', { email: phoneOwner.email, code: loginCodeNow })).statusCode,
    ).toBe(200);
  });

  it('kills the code at the sixth wrong try, even if the sixth is right', async () => {
    const email = 'sixth@example.com';
    await sendRegistrationCode(email);
    const code = await latestCode(t, email);
    for (let i = 0; i < 5; i += 1) expect((await verifyEmail(email, wrong(code))).statusCode).toBe(400);
    const sixth = await verifyEmail(email, code);
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().message).toBe('Too many wrong codes. Ask for a new code.');
  });

  it('counts fifty wrong tries sent at once as fifty', async () => {
    const email = 'fifty@example.com';
    await sendRegistrationCode(email);
    const code = await latestCode(t, email);
    const answers = await Promise.all(Array.from({ length: 50 }, () => verifyEmail(email, wrong(code))));
    expect(answers.filter((a) => a.statusCode === 400)).toHaveLength(5);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(45);
    expect((await verifyEmail(email, code)).statusCode).toBe(429);
    const [row] = await t.database.db
      .select()
      .from(otpCodes)
      .where(sql`${otpCodes.destination} = ${email}`);
    expect(row?.attempts).toBe(5);
  });

  it('refuses a resend inside 10 seconds', async () => {
    const email = 'resend@example.com';
    expect((await sendRegistrationCode(email)).statusCode).toBe(200);
    const again = await post('/api/verification/email/otp/resend', { email, purpose: 'new account' });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/^Wait (10|9) seconds before asking for a new code\.$/);
  });

  it('only the newest code works after a resend', async () => {
    const email = 'newest@example.com';
    await sendRegistrationCode(email);
    const first = await latestCode(t, email);
    await t.database.db
      .update(otpCodes)
      .set({ createdAt: sql`now() - interval '11 seconds'` })
      .where(sql`${otpCodes.destination} = ${email}`);
    const second = await sendUntilCodeDiffers(email, first, () =>
      post('/api/verification/email/otp/resend', { email, purpose: 'new account' }),
    );
    expect((await verifyEmail(email, first)).statusCode).toBe(400);
    expect((await verifyEmail(email, second)).statusCode).toBe(200);
  });

  /** Steps past the 10-second resend wait without waiting. */
  const stepPastResendWait = (destination: string) =>
    t.database.db
      .update(otpCodes)
      .set({ createdAt: sql`${otpCodes.createdAt} - interval '11 seconds'` })
      .where(sql`${otpCodes.destination} = ${destination}`);

  it('stops a flood of unused codes to one address and says when to try again', async () => {
    const email = 'flood@example.com';
    for (let i = 0; i < 5; i += 1) {
      expect((await sendRegistrationCode(email)).statusCode).toBe(200);
      await stepPastResendWait(email);
    }
    const [oldest] = await t.database.db
      .select({ createdAt: otpCodes.createdAt })
      .from(otpCodes)
      .where(sql`${otpCodes.destination} = ${email}`)
      .orderBy(otpCodes.createdAt)
      .limit(1);
    const sixth = await sendRegistrationCode(email);
    expect(sixth.statusCode).toBe(429);
    const body = sixth.json<{ message: string; code: string; retryAt: string }>();
    expect(body.code).toBe('TOO_MANY_REQUESTS');
    // The oldest of the five leaves the 15-minute window then.
    expect(new Date(body.retryAt).getTime()).toBe(oldest!.createdAt.getTime() + 15 * 60_000);
    expect(body.message).toMatch(
      /^Too many codes were sent here without being used\. Try again at \d{1,2}:\d{2}\s[AP]M UTC \(in 1[45] minutes\)\.$/,
    );
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
  });

  it('never locks out a customer who registers and then logs in several times in a quarter hour', async () => {
    const email = 'regular@example.com';
    await registerCustomer(t, email, { phone: nextPhone() });
    for (let i = 0; i < 8; i += 1) {
      await stepPastResendWait(email);
      // Each login types its code in: used codes are real use, not a flood.
      await logIn(t, email);
    }
    const codes = await t.database.db
      .select({ id: otpCodes.id })
      .from(otpCodes)
      .where(sql`${otpCodes.destination} = ${email}`);
    expect(codes.length).toBe(9);
  });

  it('a code superseded by a newer one counts as unused and no longer verifies', async () => {
    const email = 'superseded@example.com';
    await registerCustomer(t, email, { phone: nextPhone() });
    await stepPastResendWait(email);
    await post('/api/user/login-otp/send', { email });
    const first = await latestCode(t, email);
    await stepPastResendWait(email);
    await post('/api/user/login-otp/send', { email });
    const refused = await post('/api/user/login-otp/verify', { email, code: first });
    expect(refused.statusCode).toBe(400);
  });
});

describe('code floods from one IP', () => {
  it('answers 429 once one client IP asks for too many codes', async () => {
    const flood = await createTestApp({ OTP_SENDS_PER_IP: '20' });
    try {
      const statuses: number[] = [];
      let lastMessage = '';
      for (let i = 0; i < 22; i += 1) {
        const response = await flood.request({
          method: 'POST',
          url: '/api/verification/email/otp',
          payload: { email: `ip-flood-${i}@example.com`, purpose: 'new account' },
        });
        statuses.push(response.statusCode);
        lastMessage = response.json<{ message: string }>().message;
      }
      expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(20)).toEqual([429, 429]);
      expect(lastMessage).toMatch(
        /^Too many requests from your network\. Try again at .+ UTC \(in 1[45] minutes\)\.$/,
      );
    } finally {
      await flood.close();
    }
  });
});
