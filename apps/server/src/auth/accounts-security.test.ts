import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { otpCodes, outboxEvents, registrationTokens, users } from '../db/schema';
import { latestCode, logIn, nextPhone, registerCustomer } from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';

/** docs/design.md: no account enumeration, registration tokens, step-up before a contact change. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url, payload, headers });

async function outboxFor(to: string) {
  const response = await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
  return response.json<{ messages: { subject: string; text: string; code: string | null }[] }>().messages;
}

/** E-mail verified, phone not yet: the registration token of step 3. */
async function startRegistration(email: string): Promise<{ token: string; userId: string }> {
  await post('/api/verification/email/otp', { email, purpose: 'new account' });
  const verified = await post('/api/verification/verify/otp', { email, code: await latestCode(t, email) });
  expect(verified.statusCode).toBe(200);
  const [user] = await t.database.db.select().from(users).where(eq(users.email, email));
  return { token: verified.json().registrationToken, userId: user!.id };
}

describe('registration does not tell whether an e-mail has an account', () => {
  it('answers an existing e-mail as a new one and tells the owner how to log in, without a code', async () => {
    await registerCustomer(t, 'owner@example.com');
    // A minute later (the registration's own code no longer holds the next one back):
    await t.database.db
      .update(otpCodes)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(otpCodes.destination, 'owner@example.com'));
    const fresh = await post('/api/verification/email/otp', {
      email: 'fresh@example.com',
      purpose: 'new account',
    });
    const taken = await post('/api/verification/email/otp', {
      email: 'Owner@Example.com',
      purpose: 'new account',
    });
    expect(taken.statusCode).toBe(fresh.statusCode);
    expect(taken.statusCode).toBe(200);
    expect(Object.keys(taken.json())).toEqual(Object.keys(fresh.json()));
    expect(taken.json().message).toBe('We sent a 6-digit code to owner@example.com.');

    const [notice] = await outboxFor('owner@example.com');
    expect(notice?.subject).toBe('You already have an OffZero account');
    expect(notice?.text).toContain('/login');
    expect(notice?.code).toBeNull();
  });

  it('answers a guessed code for an existing e-mail as for any wrong code', async () => {
    await registerCustomer(t, 'guess-owner@example.com');
    await t.database.db
      .update(otpCodes)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(otpCodes.destination, 'guess-owner@example.com'));
    await post('/api/verification/email/otp', { email: 'guess-owner@example.com', purpose: 'new account' });
    const response = await post('/api/verification/verify/otp', {
      email: 'guess-owner@example.com',
      code: '123456',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('BAD_REQUEST');
  });
});

describe('the login and registration code calls do not tell whether an e-mail has an account', () => {
  /** What someone probing an address sees, in order: every status and body, the address blanked. */
  async function probe(email: string): Promise<string[]> {
    const seen: string[] = [];
    const call = async (url: string, payload: object) => {
      const response = await post(url, payload);
      seen.push(`${url} ${response.statusCode} ${response.body.replaceAll(email, '<email>')}`);
    };
    await call('/api/user/login-otp/send', { email });
    // The registration call at once after the login call, and each again within the resend wait.
    await call('/api/verification/email/otp', { email, purpose: 'new account' });
    await call('/api/user/login-otp/send', { email });
    await call('/api/verification/email/otp/resend', { email, purpose: 'new account' });
    for (let i = 0; i < 6; i += 1) await call('/api/user/login-otp/verify', { email, code: '000000' });
    await call('/api/verification/verify/otp', { email, code: '000000' });
    return seen;
  }

  it('answers a known, an unknown and a disabled e-mail alike, even right after the owner registered and logged in', async () => {
    const disabled = await registerCustomer(t, 'probe-disabled@example.com');
    await logIn(t, disabled.email);
    await t.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, disabled.userId));
    const known = await registerCustomer(t, 'probe-known@example.com');
    await logIn(t, known.email);

    // One instant for all three, so every wait the answers name is the same length.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const knownSees = await probe(known.email);
      const unknownSees = await probe('probe-unknown@example.com');
      const disabledSees = await probe(disabled.email);
      expect(knownSees).toEqual(unknownSees);
      expect(disabledSees).toEqual(unknownSees);
      expect(unknownSees.slice(0, 4).map((line) => line.split(' ')[1])).toEqual(['200', '200', '429', '429']);
      expect(unknownSees[2]).toContain('Wait 10 seconds before asking for a new code.');
      expect(unknownSees[4]).toContain('That code is not right. You have 4 tries left.');
      expect(unknownSees[9]).toContain('Too many wrong codes. Ask for a new code.');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('registration token', () => {
  it('gives its session once: a second phone verification with it is refused', async () => {
    const email = 'single-use@example.com';
    const { token } = await startRegistration(email);
    const phone = nextPhone();
    await post('/api/verification/phone/otp', { email, phone, registrationToken: token });
    const code = await latestCode(t, phone);
    const first = await post('/api/verification/verify/phone', {
      email,
      phone,
      code,
      registrationToken: token,
    });
    expect(first.statusCode).toBe(200);

    const again = await post('/api/verification/phone/otp', {
      email,
      phone: nextPhone(),
      registrationToken: token,
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe('Your registration has timed out. Start again or log in.');
  });

  it('ends after 15 minutes', async () => {
    const email = 'fifteen@example.com';
    const { token, userId } = await startRegistration(email);
    const [row] = await t.database.db
      .select()
      .from(registrationTokens)
      .where(eq(registrationTokens.userId, userId));
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(15 * 60_000);
    // Fifteen minutes later:
    await t.database.db
      .update(registrationTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(registrationTokens.userId, userId));
    const response = await post('/api/verification/phone/otp', {
      email,
      phone: nextPhone(),
      registrationToken: token,
    });
    expect(response.statusCode).toBe(401);
  });

  it('ends when the user logs out', async () => {
    const email = 'logout-token@example.com';
    const { token } = await startRegistration(email);
    await post('/api/user/login-otp/send', { email });
    const login = await post('/api/user/login-otp/verify', { email, code: await latestCode(t, email) });
    const logout = await post('/api/user/logout', {}, { authorization: `Bearer ${login.json().token}` });
    expect(logout.statusCode).toBe(200);
    const response = await post('/api/verification/phone/otp', {
      email,
      phone: nextPhone(),
      registrationToken: token,
    });
    expect(response.statusCode).toBe(401);
  });

  it('ends when the phone is verified from a session', async () => {
    const email = 'phone-from-session@example.com';
    const { token } = await startRegistration(email);
    await post('/api/user/login-otp/send', { email });
    const login = await post('/api/user/login-otp/verify', { email, code: await latestCode(t, email) });
    const auth = { authorization: `Bearer ${login.json().token}` };
    const phone = nextPhone();
    await post('/api/verification/phone/otp', { email, phone }, auth);
    const verified = await post(
      '/api/verification/verify/phone',
      { email, phone, code: await latestCode(t, phone) },
      auth,
    );
    expect(verified.statusCode).toBe(200);
    const response = await post('/api/verification/phone/otp', {
      email,
      phone: nextPhone(),
      registrationToken: token,
    });
    expect(response.statusCode).toBe(401);
  });

  it('is refused for another e-mail than its own', async () => {
    const { token } = await startRegistration('token-owner@example.com');
    const other = await startRegistration('token-other@example.com');
    expect(other.token).not.toBe(token);
    const response = await post('/api/verification/phone/otp', {
      email: 'token-other@example.com',
      phone: nextPhone(),
      registrationToken: token,
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('changing a verified phone', () => {
  it('is refused without the step-up code', async () => {
    const customer = await registerCustomer(t, 'no-step-up@example.com');
    const response = await post(
      '/api/verification/phone/otp',
      { email: customer.email, phone: nextPhone() },
      customer.auth,
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('STEP_UP_REQUIRED');
  });

  it('is refused with a wrong step-up code, an expired one, or one sent to another user', async () => {
    const customer = await registerCustomer(t, 'wrong-step-up@example.com');
    const other = await registerCustomer(t, 'other-step-up@example.com');
    const newPhone = nextPhone();

    expect((await post('/api/user/step-up/send', {}, other.auth)).statusCode).toBe(200);
    const othersCode = await latestCode(t, other.email);
    const withOthers = await post(
      '/api/verification/phone/otp',
      { email: customer.email, phone: newPhone, stepUpCode: othersCode },
      customer.auth,
    );
    expect(withOthers.statusCode).toBe(400);

    expect((await post('/api/user/step-up/send', {}, customer.auth)).statusCode).toBe(200);
    const own = await latestCode(t, customer.email);
    const wrong = String((Number(own) + 1) % 1_000_000).padStart(6, '0');
    const withWrong = await post(
      '/api/verification/phone/otp',
      { email: customer.email, phone: newPhone, stepUpCode: wrong },
      customer.auth,
    );
    expect(withWrong.statusCode).toBe(400);
    expect(withWrong.json().message).toMatch(/not right/);

    // Ten minutes later the code is no longer good.
    await t.database.db
      .update(otpCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(otpCodes.purpose, 'step-up'));
    const expired = await post(
      '/api/verification/phone/otp',
      { email: customer.email, phone: newPhone, stepUpCode: own },
      customer.auth,
    );
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toMatch(/expired/);
    expect(await outboxFor(newPhone)).toEqual([]);
  });

  it('changes the number with the step-up code and tells the old number', async () => {
    const customer = await registerCustomer(t, 'step-up-ok@example.com');
    const newPhone = nextPhone();
    expect((await post('/api/user/step-up/send', {}, customer.auth)).statusCode).toBe(200);
    const stepUpCode = await latestCode(t, customer.email);
    const sent = await post(
      '/api/verification/phone/otp',
      { email: customer.email, phone: newPhone, stepUpCode },
      customer.auth,
    );
    expect(sent.statusCode).toBe(200);
    // A resend for the same number within the step-up's 10 minutes needs no new step-up code…
    await t.database.db
      .update(otpCodes)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(otpCodes.destination, `${customer.userId}:${newPhone}:change`));
    const resent = await post(
      '/api/verification/phone/otp',
      { email: customer.email, phone: newPhone },
      customer.auth,
    );
    expect(resent.statusCode).toBe(200);
    // …but another number does.
    const other = await post(
      '/api/verification/phone/otp',
      { email: customer.email, phone: nextPhone() },
      customer.auth,
    );
    expect(other.json().code).toBe('STEP_UP_REQUIRED');
    const verified = await post(
      '/api/verification/verify/phone',
      { email: customer.email, phone: newPhone, code: await latestCode(t, newPhone) },
      customer.auth,
    );
    expect(verified.statusCode).toBe(200);
    expect(verified.json().user.phoneNumber).toBe(newPhone);

    const notices = await t.database.db
      .select()
      .from(outboxEvents)
      .where(eq(outboxEvents.recipient, customer.phone));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.payload.text).toContain(newPhone.slice(-4));
  });

  it('refuses the step-up call to a visitor', async () => {
    const response = await post('/api/user/step-up/send', {});
    expect(response.statusCode).toBe(401);
  });
});

describe('changing the e-mail', () => {
  async function stepUp(who: { auth: { authorization: string }; email: string }): Promise<string> {
    expect((await post('/api/user/step-up/send', {}, who.auth)).statusCode).toBe(200);
    return latestCode(t, who.email);
  }

  it('is refused without a step-up code, with a wrong one, or with another user’s', async () => {
    const customer = await registerCustomer(t, 'email-change-refused@example.com');
    const other = await registerCustomer(t, 'email-change-other@example.com');
    const missing = await post('/api/user/email/change', { newEmail: 'new-1@example.com' }, customer.auth);
    expect(missing.statusCode).toBe(400);
    const othersCode = await stepUp(other);
    const withOthers = await post(
      '/api/user/email/change',
      { newEmail: 'new-1@example.com', stepUpCode: othersCode },
      customer.auth,
    );
    expect(withOthers.statusCode).toBe(400);
    expect(await outboxFor('new-1@example.com')).toEqual([]);
    expect(
      (await post('/api/user/email/change', { newEmail: 'x@example.com', stepUpCode: '123456' })).statusCode,
    ).toBe(401);
  });

  it('changes the e-mail with the step-up code and the new address’s code, and tells the old address', async () => {
    const customer = await registerCustomer(t, 'email-change-ok@example.com');
    const stepUpCode = await stepUp(customer);
    const sent = await post(
      '/api/user/email/change',
      { newEmail: 'Email-Changed@Example.com', stepUpCode },
      customer.auth,
    );
    expect(sent.statusCode).toBe(200);
    const code = await latestCode(t, 'email-changed@example.com');
    // The step-up code is used up: it cannot start another change.
    const reused = await post(
      '/api/user/email/change',
      { newEmail: 'another@example.com', stepUpCode },
      customer.auth,
    );
    expect(reused.statusCode).toBe(400);

    const changed = await post(
      '/api/user/email/change/verify',
      { newEmail: 'email-changed@example.com', code },
      customer.auth,
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.json().user.email).toBe('email-changed@example.com');
    const notices = await t.database.db
      .select()
      .from(outboxEvents)
      .where(eq(outboxEvents.recipient, 'email-change-ok@example.com'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.payload.text).toContain('email-changed@example.com');
  });

  it('answers a new address that has an account as any other, and sends its owner no code', async () => {
    const customer = await registerCustomer(t, 'email-change-taken@example.com');
    await registerCustomer(t, 'already-mine@example.com');
    await t.database.db
      .update(otpCodes)
      .set({ createdAt: new Date(Date.now() - 60_000) })
      .where(eq(otpCodes.destination, 'already-mine@example.com'));
    const sent = await post(
      '/api/user/email/change',
      { newEmail: 'already-mine@example.com', stepUpCode: await stepUp(customer) },
      customer.auth,
    );
    expect(sent.statusCode).toBe(200);
    expect(sent.json().message).toBe('We sent a 6-digit code to already-mine@example.com.');
    const [notice] = await outboxFor('already-mine@example.com');
    expect(notice?.subject).toBe('You already have an OffZero account');
    expect(notice?.code).toBeNull();
  });
});
