import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otpCodes, outboxMessages } from '../db/schema';
import { latestCode, nextPhone } from '../test/accounts-helpers';
import { createTestApp, createTestAppOnSameDatabase, type TestApp } from '../test/test-app';

/**
 * The one-code-per-10-seconds rule under simultaneous requests: 30 at once for one destination send
 * one message. On PostgreSQL the requests are split across two server processes on one database.
 */
const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';
const AT_ONCE = 30;

describe(`one-time codes asked for ${AT_ONCE} times at once${IS_POSTGRES ? ' on two processes' : ''}`, () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    // One signing secret, as the processes of one deployment share (codes and tokens are signed with it).
    const overrides = { JWT_SECRET: randomBytes(32).toString('hex') };
    a = await createTestApp(overrides);
    b = IS_POSTGRES ? await createTestAppOnSameDatabase(a, overrides) : a;
  });
  afterAll(async () => {
    if (b !== a) await b?.close();
    await a?.close();
  });

  /** The same call `AT_ONCE` times at once, alternately on each process. */
  function atOnce(url: string, payload: object): Promise<LightMyRequestResponse[]> {
    return Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        (i % 2 === 0 ? a : b).request({ method: 'POST', url, payload }),
      ),
    );
  }

  const messagesTo = (to: string) =>
    a.database.db.select().from(outboxMessages).where(eq(outboxMessages.to, to));

  function expectOneSent(answers: LightMyRequestResponse[]): void {
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 429)).toHaveLength(AT_ONCE - 1);
    for (const refused of answers.filter((answer) => answer.statusCode === 429)) {
      expect(refused.json().message).toMatch(/^Wait (10|9) seconds before asking for a new code\.$/);
    }
  }

  it('sends one text message to a phone', async () => {
    const email = 'parallel.phone@example.com';
    await a.request({ method: 'POST', url: '/api/verification/email/otp', payload: { email } });
    const verified = await a.request({
      method: 'POST',
      url: '/api/verification/verify/otp',
      payload: { email, code: await latestCode(a, email) },
    });
    const { registrationToken } = verified.json<{ registrationToken: string }>();
    const phone = nextPhone();

    expectOneSent(await atOnce('/api/verification/phone/otp', { email, phone, registrationToken }));
    expect(await messagesTo(phone)).toHaveLength(1);
  });

  it('issues one login code to an e-mail', async () => {
    const email = 'parallel.login@example.com';
    expect(
      (await a.request({ method: 'POST', url: '/api/verification/email/otp', payload: { email } }))
        .statusCode,
    ).toBe(200);
    const codesBefore = await a.database.db.select().from(otpCodes).where(eq(otpCodes.destination, email));

    expectOneSent(await atOnce('/api/user/login-otp/send', { email }));
    const codes = await a.database.db.select().from(otpCodes).where(eq(otpCodes.destination, email));
    expect(codes.length - codesBefore.length).toBe(1);
  });
});
