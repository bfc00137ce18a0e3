import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { kycRecords, webhookDeliveries } from '../db/schema';
import { MAX_DELIVERY_ATTEMPTS } from '../jobs/retry-schedule';
import { createSumsubKycProvider } from '../kyc/sumsub-kyc-provider';
import { logIn, registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { createTestApp, createTestAppOnSameDatabase, type TestApp } from '../test/test-app';
import { createInboxService } from './inbox.service';

const IS_POSTGRES = process.env.TEST_DATABASE_KIND === 'postgres';
const webhookSecret = 'inbox-webhook-secret';
const quietLog = { warn: () => undefined, error: () => undefined };
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 50 });

/** What Sumsub says of each applicant (by our user id), read back before a decision is applied. */
const sumsubApplicants = new Map<string, 'GREEN' | 'RED'>();
let sumsubServer: Server;
let sumsubUrl = 'http://127.0.0.1:1';
beforeAll(async () => {
  sumsubServer = createServer((request, response) => {
    const match = /^\/resources\/applicants\/-;externalUserId=([^/]+)\/one$/.exec(request.url ?? '');
    const answer = match ? sumsubApplicants.get(decodeURIComponent(match[1]!)) : undefined;
    response.writeHead(answer ? 200 : 404, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(
        answer
          ? {
              id: `applicant-${match![1]}`,
              review: { reviewStatus: 'completed', reviewResult: { reviewAnswer: answer } },
            }
          : { description: 'Applicant not found', code: 404 },
      ),
    );
  });
  await new Promise<void>((resolve) => sumsubServer.listen(0, '127.0.0.1', resolve));
  sumsubUrl = `http://127.0.0.1:${(sumsubServer.address() as AddressInfo).port}`;
});
afterAll(async () => new Promise((resolve) => sumsubServer.close(resolve)));

const sumsub = () =>
  createSumsubKycProvider({
    appToken: 'sbx:app-token',
    secretKey: 'secret-key',
    webhookSecret,
    levelName: 'basic-kyc-level',
    apiUrl: sumsubUrl,
  });

const reviewed = (userId: string, answer: 'GREEN' | 'RED', at: string) => {
  sumsubApplicants.set(userId, answer);
  return JSON.stringify({
    applicantId: `applicant-${userId}`,
    externalUserId: userId,
    type: 'applicantReviewed',
    reviewStatus: 'completed',
    reviewResult: { reviewAnswer: answer },
    createdAtMs: at,
  });
};
const headersFor = (body: string) => ({
  'x-payload-digest': createHmac('sha256', webhookSecret).update(body).digest('hex'),
  'x-payload-digest-alg': 'HMAC_SHA256_HEX',
});

describe('webhook inbox', () => {
  let t: TestApp;
  let ada: RegisteredCustomer;

  beforeAll(async () => {
    t = await createTestApp({}, undefined, { providers: { kyc: sumsub() } });
    ada = await registerCustomer(t, 'ada.inbox@example.com');
  });
  afterAll(async () => t.close());

  const kycStatus = async (userId: string) =>
    (await t.database.db.select().from(kycRecords).where(eq(kycRecords.userId, userId)))[0]?.status;
  const stored = async (id: string) =>
    (await t.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0];

  it('stores a verified webhook with what verifies it, answers at once and applies it by a job', async () => {
    const body = reviewed(ada.userId, 'GREEN', '2026-11-22 10:00:00.000');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/kyc/webhook/sumsub',
      headers: { 'content-type': 'application/json', ...headersFor(body) },
      payload: body,
    });
    expect(response.json()).toEqual({ message: 'Received.' });
    const [row] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.provider, 'sumsub'));
    expect(Buffer.from(row!.rawBody!).toString('utf8')).toBe(body);
    expect(row?.headers).toEqual(headersFor(body));
    await eventually(async () => expect(await kycStatus(ada.userId)).toBe('GREEN'));
    expect(await stored(row!.id)).toMatchObject({ status: 'processed', attempts: 1, lastError: null });
  });

  it('keeps a webhook whose processing throws, retries it with backoff and applies it once', async () => {
    const clock = { now: new Date(Date.now() + 86_400_000) };
    let failuresLeft = 2;
    let applied = 0;
    // Its own inbox (no job sent, the test's clock a day ahead so the app's sweep leaves it alone).
    const inbox = createInboxService({ db: t.database.db, log: quietLog, now: () => clock.now });
    inbox.register('test-provider', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('provider API timed out');
      }
      applied += 1;
    });
    const delivery = { provider: 'test-provider', rawBody: Buffer.from('{"n":1}'), headers: {} };
    expect(await inbox.receive(delivery)).toBe('stored');
    expect(await inbox.receive(delivery)).toBe('replay');
    const [row] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.provider, 'test-provider'));
    const id = row!.id;

    expect(await inbox.process(null)).toMatchObject({ [id]: 'retry' });
    expect(await stored(id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'provider API timed out',
      processedAt: null,
    });
    // Not due again before its backoff.
    expect((await inbox.process(null)) as Record<string, string>).not.toHaveProperty(id);
    clock.now = new Date(clock.now.getTime() + 60_000);
    expect(await inbox.process(null)).toMatchObject({ [id]: 'retry' });
    expect((await stored(id))?.attempts).toBe(2);
    clock.now = new Date(clock.now.getTime() + 120_000);

    // Several workers at once: one applies it.
    const outcomes = await Promise.all([inbox.process(null), inbox.process(null), inbox.processOne(id)]);
    expect(applied).toBe(1);
    expect(
      outcomes.flatMap((o) => (typeof o === 'string' ? [o] : Object.values(o as Record<string, string>))),
    ).toContain('processed');
    expect(await stored(id)).toMatchObject({ status: 'processed', attempts: 3, lastError: null });
    // Applied once, never again.
    expect(await inbox.processOne(id)).toBe('skipped');
    clock.now = new Date(clock.now.getTime() + 86_400_000);
    await inbox.process(null);
    expect(applied).toBe(1);
  });

  it('prepares a delivery outside the transaction, hands the handler its answer, retries a failed preparation', async () => {
    const clock = { now: new Date(Date.now() + 3 * 86_400_000) };
    const inbox = createInboxService({ db: t.database.db, log: quietLog, now: () => clock.now });
    let outage = true;
    const seen: unknown[] = [];
    inbox.register(
      'prepared-provider',
      async (_tx, delivery, prepared: { read: string }) => {
        seen.push({ id: delivery.id, prepared });
      },
      async (delivery) => {
        if (outage) throw new Error('provider unreachable');
        return { read: delivery.rawBody.toString('utf8') };
      },
    );
    const delivery = { provider: 'prepared-provider', rawBody: Buffer.from('{"n":2}'), headers: {} };
    // Its own key: the same bytes under another event id are another delivery.
    expect(await inbox.receive({ ...delivery, deliveryKey: 'event-1' })).toBe('stored');
    expect(await inbox.receive({ ...delivery, deliveryKey: 'event-1' })).toBe('replay');
    const [row] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.deliveryKey, 'event-1'));
    expect(await inbox.processOne(row!.id)).toBe('retry');
    expect(seen).toEqual([]);
    expect(await stored(row!.id)).toMatchObject({ status: 'pending', lastError: 'provider unreachable' });
    outage = false;
    expect(await inbox.processOne(row!.id)).toBe('processed');
    expect(seen).toEqual([{ id: row!.id, prepared: { read: '{"n":2}' } }]);
    expect(await inbox.processOne(row!.id)).toBe('skipped');
  });

  it('parks a webhook that fails every try, with its error', async () => {
    const clock = { now: new Date(Date.now() + 2 * 86_400_000) };
    const inbox = createInboxService({ db: t.database.db, log: quietLog, now: () => clock.now });
    inbox.register('always-failing', async () => {
      throw new Error('cannot apply');
    });
    await inbox.receive({ provider: 'always-failing', rawBody: Buffer.from('{}'), headers: {} });
    for (let i = 0; i < 1000; i++) {
      await inbox.process(null);
      clock.now = new Date(clock.now.getTime() + 30_000);
    }
    const [row] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.provider, 'always-failing'));
    expect(row).toMatchObject({
      status: 'failed',
      attempts: MAX_DELIVERY_ATTEMPTS,
      lastError: 'cannot apply',
    });
    expect((await inbox.counts()).failed).toBeGreaterThanOrEqual(1);
    // The back office sees it, with its error.
    const admin = await logIn(t, 'admin@offzero.local');
    const answer = await t.app.inject({ method: 'GET', url: '/api/admin/inbox', headers: admin.auth });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().failed).toContainEqual(
      expect.objectContaining({
        id: row!.id,
        provider: 'always-failing',
        attempts: MAX_DELIVERY_ATTEMPTS,
        error: 'cannot apply',
      }),
    );
    expect(answer.json().pending).toBe((await inbox.counts()).pending);
  });

  it('loses nothing when the process dies between receipt and processing: the sweep applies it', async () => {
    const bob = await registerCustomer(t, 'bob.inbox@example.com');
    const body = reviewed(bob.userId, 'RED', '2026-11-22 11:00:00.000');
    // The process that received it stored it and died before sending the job.
    const crashed = createInboxService({ db: t.database.db, log: quietLog });
    expect(
      await crashed.receive({ provider: 'sumsub', rawBody: Buffer.from(body), headers: headersFor(body) }),
    ).toBe('stored');
    expect(await kycStatus(bob.userId)).toBeUndefined();
    await eventually(async () => expect(await kycStatus(bob.userId)).toBe('RED'));
    // Sumsub sending it again is a replay.
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/kyc/webhook/sumsub',
      headers: { 'content-type': 'application/json', ...headersFor(body) },
      payload: body,
    });
    expect(again.json()).toEqual({ message: 'Already processed.' });
  });

  it.runIf(IS_POSTGRES)(
    'loses nothing when the receiving process stops before processing: a new process applies it',
    async () => {
      const carol = await registerCustomer(t, 'carol.inbox@example.com');
      const body = reviewed(carol.userId, 'GREEN', '2026-11-22 12:00:00.000');
      // A web process (it works no jobs) receives it and stops.
      const web = await createTestAppOnSameDatabase(
        t,
        { PROCESS_ROLE: 'web' },
        { providers: { kyc: sumsub() } },
      );
      const crashedSweep = createInboxService({ db: web.database.db, log: quietLog });
      expect(
        await crashedSweep.receive({
          provider: 'sumsub',
          rawBody: Buffer.from(body),
          headers: headersFor(body),
        }),
      ).toBe('stored');
      await web.close();
      // A new process on the same database finds it.
      const next = await createTestAppOnSameDatabase(t, {}, { providers: { kyc: sumsub() } });
      try {
        await eventually(async () => expect(await kycStatus(carol.userId)).toBe('GREEN'));
      } finally {
        await next.close();
      }
    },
  );
});
