import { createHash, createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { webhookDeliveries } from '../db/schema';
import { logIn, registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { createTestApp, type TestApp } from '../test/test-app';
import { PRODUCTION_TEST_ENV } from '../test/production-env';
import { createMemoryEventBus, type RealtimeEvent } from '../realtime/event-bus';
import { createSumsubKycProvider } from './sumsub-kyc-provider';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);
const validForm = {
  legalName: 'Ada Lovelace',
  dateOfBirth: '1990-12-10',
  country: 'US',
  residenceState: 'CA',
  documentType: 'passport',
  documentNumber: 'X1234567',
};

/** A multipart body as a browser's FormData would send it. */
async function multipart(
  fields: Record<string, string>,
  file?: { name: string; bytes: Buffer; type: string },
) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (file) form.append(file.name, new Blob([file.bytes], { type: file.type }), 'document.png');
  const request = new Request('http://local/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type')!,
  };
}

const pngDocument = { name: 'document', bytes: PNG, type: 'image/png' };

async function submitLocal(
  t: TestApp,
  who: RegisteredCustomer,
  fields: Record<string, string>,
  file: { name: string; bytes: Buffer; type: string } | null = pngDocument,
) {
  const body = await multipart(fields, file ?? undefined);
  return t.request({
    method: 'POST',
    url: '/api/kyc/local/submit',
    headers: { ...who.auth, 'content-type': body.contentType },
    payload: body.payload,
  });
}

describe('local KYC (demo)', () => {
  let t: TestApp;
  let ada: RegisteredCustomer;
  let bob: RegisteredCustomer;
  beforeAll(async () => {
    t = await createTestApp();
    ada = await registerCustomer(t, 'ada.kyc@example.com');
    bob = await registerCustomer(t, 'bob.kyc@example.com');
  });
  afterAll(async () => t.close());

  const kycOf = async (who: RegisteredCustomer) =>
    (await t.app.inject({ method: 'GET', url: `/api/kyc/${who.userId}`, headers: who.auth })).json().kyc;

  it('has no record before the form is sent, and no widget token', async () => {
    expect(await kycOf(ada)).toBeNull();
    const token = await t.request({
      method: 'POST',
      url: '/api/kyc/generate/token',
      headers: ada.auth,
      payload: { user_id: ada.userId },
    });
    expect(token.json()).toEqual({ provider: 'local', token: null });
    const register = await t.request({
      method: 'POST',
      url: '/api/kyc/register',
      headers: ada.auth,
      payload: { userid: ada.userId },
    });
    expect(register.statusCode).toBe(400);
    expect(register.json().message).toBe('Fill in the verification form first.');
  });

  it('refuses an incomplete or invalid form, a missing image and a file that is not an image', async () => {
    type DocumentCase = Parameters<typeof submitLocal>[3] | 'no-file' | undefined;
    const cases: [Record<string, string>, DocumentCase][] = [
      [{ ...validForm, legalName: '' }, undefined],
      [{ ...validForm, dateOfBirth: '2020-01-01' }, undefined],
      [{ ...validForm, dateOfBirth: '1990-02-31' }, undefined],
      [{ ...validForm, country: 'USA' }, undefined],
      [{ ...validForm, documentType: 'library_card' }, undefined],
      [{ ...validForm, documentNumber: '1' }, undefined],
      [{ ...validForm, legalName: 'Ada\u202eLovelace' }, undefined],
      [validForm, 'no-file'],
      [validForm, { name: 'document', bytes: Buffer.from('%PDF-1.7 not an image'), type: 'image/png' }],
    ];
    for (const [fields, file] of cases) {
      const response = await submitLocal(t, ada, fields, file === 'no-file' ? null : (file ?? pngDocument));
      expect(response.statusCode, JSON.stringify(fields)).toBe(400);
    }
    expect(await kycOf(ada)).toBeNull();
  });

  it('puts a valid submission under review (YELLOW), once', async () => {
    const response = await submitLocal(t, ada, validForm);
    expect(response.statusCode).toBe(200);
    expect(response.json().kyc.status).toBe('YELLOW');
    expect((await kycOf(ada)).status).toBe('YELLOW');
    expect((await submitLocal(t, ada, validForm)).statusCode).toBe(409);
  });

  it('shows the reviewer the uploaded document, byte for byte, in its own image type', async () => {
    const admin = await logIn(t, 'admin@offzero.local');
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/admin/kyc/${ada.userId}/document`,
      headers: admin.auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('private, no-store');
    expect(response.rawPayload.equals(PNG)).toBe(true);
  });

  it('ignores what the browser reports as the result', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/kyc/status/update',
      headers: ada.auth,
      payload: { userid: ada.userId, results: { reviewAnswer: 'GREEN', reviewStatus: 'completed' } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().kyc.status).toBe('YELLOW');
  });

  it('is decided by the demo helper: approved, and a rejected customer may submit again', async () => {
    const approve = await t.request({
      method: 'POST',
      url: '/api/dev/kyc/decide',
      payload: { userId: ada.userId, status: 'GREEN' },
    });
    expect(approve.statusCode).toBe(200);
    expect((await kycOf(ada)).status).toBe('GREEN');
    expect((await submitLocal(t, ada, validForm)).json().message).toBe('Your identity is already verified.');

    await t.request({
      method: 'POST',
      url: '/api/dev/kyc/decide',
      payload: { userId: bob.userId, status: 'RED' },
    });
    expect((await kycOf(bob)).status).toBe('RED');
    expect((await submitLocal(t, bob, validForm)).json().kyc.status).toBe('YELLOW');
  });

  it('refuses the decide helper for an unknown customer and a bad status', async () => {
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/dev/kyc/decide',
          payload: { userId: 'nope', status: 'GREEN' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/dev/kyc/decide',
          payload: { userId: ada.userId, status: 'BLUE' },
        })
      ).statusCode,
    ).toBe(400);
  });

  it("refuses another customer's id in every KYC call (403)", async () => {
    const responses = await Promise.all([
      t.app.inject({ method: 'GET', url: `/api/kyc/${ada.userId}`, headers: bob.auth }),
      t.request({
        method: 'POST',
        url: '/api/kyc/generate/token',
        headers: bob.auth,
        payload: { user_id: ada.userId },
      }),
      t.request({
        method: 'POST',
        url: '/api/kyc/register',
        headers: bob.auth,
        payload: { userid: ada.userId },
      }),
      t.request({
        method: 'POST',
        url: '/api/kyc/status/update',
        headers: bob.auth,
        payload: { userid: ada.userId, results: {} },
      }),
    ]);
    for (const response of responses) expect(response.statusCode).toBe(403);
  });
});

/** Every realtime event the app publishes, per customer. */
function recordingBus() {
  const bus = createMemoryEventBus();
  const events: { userId: string; event: RealtimeEvent }[] = [];
  bus.subscribe((userId, event) => events.push({ userId, event }));
  const kycStatusesOf = (userId: string) =>
    events.flatMap(({ userId: to, event }) =>
      to === userId && event.type === 'kyc-updated' ? [event.payload.status] : [],
    );
  return { bus, kycStatusesOf };
}

describe('realtime kyc-updated', () => {
  it('tells the customer of a submission and of the demo helper decision, and nobody else', async () => {
    const recorded = recordingBus();
    const t = await createTestApp({}, undefined, { realtime: { bus: recorded.bus } });
    try {
      const dan = await registerCustomer(t, 'dan.kyc@example.com');
      const eve = await registerCustomer(t, 'eve.kyc@example.com');
      await submitLocal(t, dan, validForm);
      expect(recorded.kycStatusesOf(dan.userId)).toEqual(['YELLOW']);
      const decided = await t.request({
        method: 'POST',
        url: '/api/dev/kyc/decide',
        payload: { userId: dan.userId, status: 'GREEN' },
      });
      expect(decided.statusCode).toBe(200);
      expect(recorded.kycStatusesOf(dan.userId)).toEqual(['YELLOW', 'GREEN']);
      expect(recorded.kycStatusesOf(eve.userId)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('automatic approval (KYC_AUTO_APPROVE_SECONDS)', () => {
  it('approves a local submission after the configured wait, and tells the customer', async () => {
    const recorded = recordingBus();
    const t = await createTestApp({ KYC_AUTO_APPROVE_SECONDS: '0' }, undefined, {
      realtime: { bus: recorded.bus },
    });
    try {
      const carol = await registerCustomer(t, 'carol.kyc@example.com');
      await submitLocal(t, carol, validForm);
      await expect
        .poll(
          async () =>
            (
              await t.app.inject({ method: 'GET', url: `/api/kyc/${carol.userId}`, headers: carol.auth })
            ).json().kyc.status,
          {
            timeout: 8_000,
          },
        )
        .toBe('GREEN');
      // The notice goes out through the outbox once the decision is committed: a moment later.
      await expect.poll(() => recorded.kycStatusesOf(carol.userId), { timeout: 8_000 }).toContain('GREEN');
    } finally {
      await t.close();
    }
  });
});

/** Until `check` passes: what a job applies after the answer (the inbox) is awaited this way. */
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 50 });

describe('Sumsub', () => {
  const secretKey = 'sumsub-secret-key';
  const webhookSecret = 'sumsub-webhook-secret';
  let server: Server;
  let t: TestApp;
  let ada: RegisteredCustomer;
  const seen: { method: string; path: string; ok: boolean }[] = [];
  const applicants = new Map<string, object>();

  beforeAll(async () => {
    // A local server speaking Sumsub's API; it refuses any request whose signature is wrong.
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const ts = String(request.headers['x-app-access-ts']);
        const expected = createHmac('sha256', secretKey)
          .update(ts + request.method + request.url + body)
          .digest('hex');
        const ok =
          request.headers['x-app-token'] === 'sbx:app-token' &&
          request.headers['x-app-access-sig'] === expected &&
          Math.abs(Date.now() / 1000 - Number(ts)) < 60;
        seen.push({ method: request.method!, path: request.url!, ok });
        const send = (status: number, json: object) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(json));
        };
        if (!ok) return send(401, { description: 'Request signature mismatch', code: 401 });
        if (request.method === 'POST' && request.url === '/resources/accessTokens/sdk') {
          const { userId, levelName } = JSON.parse(body);
          return send(200, { token: `_act-sbx-${userId}-${levelName}`, userId });
        }
        const match = /^\/resources\/applicants\/-;externalUserId=([^/]+)\/one$/.exec(request.url ?? '');
        if (request.method === 'GET' && match) {
          const applicant = applicants.get(decodeURIComponent(match[1]!));
          return applicant
            ? send(200, applicant)
            : send(404, { description: 'Applicant not found', code: 404 });
        }
        return send(404, { description: 'Not found' });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const kyc = createSumsubKycProvider({
      appToken: 'sbx:app-token',
      secretKey,
      webhookSecret,
      levelName: 'basic-kyc-level',
      apiUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    });
    t = await createTestApp({}, undefined, { providers: { kyc } });
    ada = await registerCustomer(t, 'ada.sumsub@example.com');
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const kycOf = async () =>
    (await t.app.inject({ method: 'GET', url: `/api/kyc/${ada.userId}`, headers: ada.auth })).json().kyc;

  it('mints the widget token for the signed-in customer with a signed request', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/kyc/generate/token',
      headers: ada.auth,
      payload: { user_id: ada.userId },
    });
    expect(response.json()).toEqual({ provider: 'sumsub', token: `_act-sbx-${ada.userId}-basic-kyc-level` });
    expect(seen.at(-1)).toMatchObject({ method: 'POST', path: '/resources/accessTokens/sdk', ok: true });
  });

  it("registers the KYC from Sumsub's own answer, never from the browser", async () => {
    const early = await t.request({
      method: 'POST',
      url: '/api/kyc/register',
      headers: ada.auth,
      payload: { userid: ada.userId },
    });
    expect(early.statusCode).toBe(400);
    applicants.set(ada.userId, { id: 'applicant-1', review: { reviewStatus: 'pending' } });
    const registered = await t.request({
      method: 'POST',
      url: '/api/kyc/register',
      headers: ada.auth,
      payload: { userid: ada.userId },
    });
    expect(registered.json().kyc.status).toBe('YELLOW');
    const claimed = await t.request({
      method: 'POST',
      url: '/api/kyc/status/update',
      headers: ada.auth,
      payload: { userid: ada.userId, results: { reviewAnswer: 'GREEN' } },
    });
    expect(claimed.json().kyc.status).toBe('YELLOW');
    expect(seen.every((request) => request.ok)).toBe(true);
  });

  it('has no demo form in production-like setups', async () => {
    const body = await multipart(validForm, { name: 'document', bytes: PNG, type: 'image/png' });
    const response = await t.request({
      method: 'POST',
      url: '/api/kyc/local/submit',
      headers: { ...ada.auth, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(response.statusCode).toBe(404);
  });

  const webhook = (body: string, digest: string, algorithm = 'HMAC_SHA256_HEX') =>
    t.app.inject({
      method: 'POST',
      url: '/api/kyc/webhook/sumsub',
      headers: {
        'content-type': 'application/json',
        'x-payload-digest': digest,
        'x-payload-digest-alg': algorithm,
      },
      payload: body,
    });
  const sign = (body: string, algorithm: 'sha256' | 'sha512' = 'sha256') =>
    createHmac(algorithm, webhookSecret).update(body).digest('hex');
  const reviewed = (answer: 'GREEN' | 'RED', extra: object = {}) =>
    JSON.stringify({
      applicantId: 'applicant-1',
      externalUserId: ada.userId,
      type: 'applicantReviewed',
      reviewStatus: 'completed',
      reviewResult: { reviewAnswer: answer },
      createdAtMs: '2026-11-21 10:00:00.000',
      ...extra,
    });

  it('refuses a forged or altered webhook and changes nothing', async () => {
    const body = reviewed('GREEN');
    expect(
      (
        await webhook(
          body,
          sign(body).replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
        )
      ).statusCode,
    ).toBe(401);
    const altered = body.replace('"completed"', '"completed" ');
    expect((await webhook(altered, sign(body))).statusCode).toBe(401);
    expect((await webhook(body, 'zz-not-hex')).statusCode).toBe(401);
    expect(
      (await webhook(body, createHmac('sha1', webhookSecret).update(body).digest('hex'), 'HMAC_SHA1_HEX'))
        .statusCode,
    ).toBe(401);
    expect((await kycOf()).status).toBe('YELLOW');
  });

  const sumsubSays = (answer: 'GREEN' | 'RED') =>
    applicants.set(ada.userId, {
      id: 'applicant-1',
      review: { reviewStatus: 'completed', reviewResult: { reviewAnswer: answer } },
    });
  const applied = (body: string) =>
    eventually(async () => {
      const [row] = await t.database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.deliveryKey, createHash('sha256').update(body).digest('hex')));
      expect(row?.status).toBe('processed');
    });
  const readBacks = () =>
    seen.filter((request) => request.method === 'GET' && request.path.includes(ada.userId)).length;

  it('applies a signed review (SHA-256 or SHA-512) and ignores a replay of an older delivery', async () => {
    sumsubSays('GREEN');
    const green = reviewed('GREEN');
    expect((await webhook(green, sign(green))).json()).toEqual({ message: 'Received.' });
    // Answered at once, applied by the inbox's job.
    await eventually(async () => expect((await kycOf()).status).toBe('GREEN'));

    sumsubSays('RED');
    const red = reviewed('RED', { createdAtMs: '2026-11-21 10:05:00.000' });
    expect((await webhook(red, sign(red, 'sha512'), 'HMAC_SHA512_HEX')).statusCode).toBe(200);
    await eventually(async () => expect((await kycOf()).status).toBe('RED'));

    // Replaying the earlier GREEN delivery must not undo the later decision.
    expect((await webhook(green, sign(green))).json()).toEqual({ message: 'Already processed.' });
    expect((await kycOf()).status).toBe('RED');
  });

  it('leaves RED when an older GREEN event arrives after a newer RED one, without asking Sumsub', async () => {
    sumsubSays('RED');
    const newerRed = reviewed('RED', {
      createdAtMs: '2026-11-21 11:00:00.000',
      correlationId: 'req-newer-red',
    });
    expect((await webhook(newerRed, sign(newerRed))).statusCode).toBe(200);
    await applied(newerRed);
    expect((await kycOf()).status).toBe('RED');
    const asked = readBacks();
    // Sumsub delivers a GREEN it made earlier, late: even were Sumsub to answer GREEN now, it is stale.
    sumsubSays('GREEN');
    const olderGreen = reviewed('GREEN', {
      createdAtMs: '2026-11-21 10:59:59.999',
      correlationId: 'req-older-green',
    });
    expect((await webhook(olderGreen, sign(olderGreen))).json()).toEqual({ message: 'Received.' });
    await applied(olderGreen);
    expect((await kycOf()).status).toBe('RED');
    // The stale event never reached a decision, so nobody asked Sumsub about it.
    expect(readBacks()).toBe(asked);
  });

  it('applies the status read back from Sumsub, not the event’s claim', async () => {
    sumsubSays('RED');
    // A newer event that says GREEN, while Sumsub's applicant is RED (reviewed again since).
    const claim = reviewed('GREEN', { createdAtMs: '2026-11-21 12:00:00.000', correlationId: 'req-claim' });
    expect((await webhook(claim, sign(claim))).statusCode).toBe(200);
    await applied(claim);
    expect((await kycOf()).status).toBe('RED');
    expect(seen.at(-1)).toMatchObject({
      method: 'GET',
      path: `/resources/applicants/-;externalUserId=${ada.userId}/one`,
      ok: true,
    });
  });

  it('needs no CSRF token (it proves itself by signature) and refuses garbage', async () => {
    expect((await webhook('[1,2]', sign('[1,2]'))).statusCode).toBe(400);
    expect((await webhook('{oops', sign('{oops'))).statusCode).toBe(400);
  });

  it("shows Sumsub's rejection reason to the customer, who may then submit again", async () => {
    applicants.set(ada.userId, {
      id: 'applicant-1',
      review: {
        reviewStatus: 'completed',
        reviewResult: { reviewAnswer: 'RED', moderationComment: 'The selfie does not match the document.' },
      },
    });
    const rejected = reviewed('RED', { createdAtMs: '2026-11-21 13:00:00.000', correlationId: 'req-reason' });
    expect((await webhook(rejected, sign(rejected))).statusCode).toBe(200);
    await eventually(async () =>
      expect(await kycOf()).toMatchObject({
        status: 'RED',
        reason: 'The selfie does not match the document.',
      }),
    );

    // The customer goes through the widget again; Sumsub now has the new case pending.
    applicants.set(ada.userId, { id: 'applicant-1', review: { reviewStatus: 'pending' } });
    const again = await t.request({
      method: 'POST',
      url: '/api/kyc/register',
      headers: ada.auth,
      payload: { userid: ada.userId },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().kyc.status).toBe('YELLOW');
    expect(again.json().kyc).not.toHaveProperty('reason');
  });
});

describe('production mode', () => {
  it('has no KYC decide helper (404)', async () => {
    const t = await createTestApp(PRODUCTION_TEST_ENV);
    try {
      const response = await t.request({
        method: 'POST',
        url: '/api/dev/kyc/decide',
        payload: { userId: 'x', status: 'GREEN' },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
