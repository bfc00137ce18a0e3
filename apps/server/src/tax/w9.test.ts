import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { taxIdentities } from '../db/schema';
import { registerVerifiedCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { TEST_W9 } from '../test/sell-helpers';
import { createTestDatabase, testConfig } from '../test/test-app';
import { createTaxService } from './tax.service';
import { createTinCipher, keyId } from './tin-cipher';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { TestApp } from '../test/test-app';

/**
 * Form W-9 (docs/design.md): the TIN rules, encryption at rest, masking in every answer, and no full TIN
 * in the logs. The app here logs at trace level into memory so the test can read every line.
 */
let t: TestApp;
let logs: string[];
let ada: RegisteredCustomer;
let bob: RegisteredCustomer;

beforeAll(async () => {
  logs = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(chunk.toString('utf8'));
      done();
    },
  });
  const { handle, drop } = await createTestDatabase();
  const config = testConfig({
    LOG_LEVEL: 'trace',
    DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  });
  const app: FastifyInstance = await buildApp({ config, database: handle, logStream: stream });
  await app.ready();
  const csrf = await app.inject({ method: 'GET', url: '/api/csrf' });
  const token = csrf.json<{ _csrf: string }>()._csrf;
  const cookie = csrf.cookies.find((c) => c.name === 'offzero_csrf')?.value ?? '';
  t = {
    app,
    config,
    database: handle,
    databaseUrl: undefined,
    request: (options: InjectOptions) =>
      app.inject({
        ...options,
        headers: { 'x-csrf-token': token, ...(options.headers ?? {}) },
        cookies: { offzero_csrf: cookie, ...(options.cookies ?? {}) },
      }),
    close: async () => {
      await app.close();
      await drop();
    },
  };
  ada = await registerVerifiedCustomer(t, 'ada.w9@example.com');
  bob = await registerVerifiedCustomer(t, 'bob.w9@example.com');
});
afterAll(async () => t.close());

const file = (who: RegisteredCustomer, payload: Record<string, unknown>) =>
  t.request({ method: 'POST', url: '/api/tax/w9', headers: who.auth, payload });
const read = (who: RegisteredCustomer, query = '') =>
  t.request({ method: 'GET', url: `/api/tax/w9${query}`, headers: who.auth });

describe('Form W-9', () => {
  it('answers null before anything is filed, and needs a session', async () => {
    expect((await read(ada)).json()).toEqual({ w9: null });
    expect((await t.request({ method: 'GET', url: '/api/tax/w9' })).statusCode).toBe(401);
  });

  it.each([
    ['SSN', '000-12-3456', 'cannot start with 000, 666 or 9'],
    ['SSN', '666-12-3456', 'cannot start with 000, 666 or 9'],
    ['SSN', '900-12-3456', 'cannot start with 000, 666 or 9'],
    ['SSN', '999-12-3456', 'cannot start with 000, 666 or 9'],
    ['SSN', 'ABC-DE-FGHI', 'as 9 digits'],
    ['SSN', '123-00-4567', 'middle two digits cannot be 00'],
    ['SSN', '123-45-0000', 'last four digits cannot be 0000'],
    ['SSN', '12a-45-6789', 'as 9 digits'],
    ['SSN', '1234567890', 'as 9 digits'],
    ['EIN', '07-1234567', 'no EIN starts with 07'],
    ['EIN', '89-1234567', 'no EIN starts with 89'],
    ['EIN', 'AB-CDEFGHI', 'as 9 digits'],
    ['ITIN', '123-70-4567', 'an ITIN starts with 9'],
    ['ITIN', '912-45-6789', 'middle two digits must be'],
    ['ITIN', '912-93-6789', 'middle two digits must be'],
  ])('refuses the %s %s', async (tinType, tin, problem) => {
    const answer = await file(ada, { ...TEST_W9, tinType, tin });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().errors.tin).toContain(problem);
    expect(answer.body).not.toContain(tin.replace(/-/g, ''));
  });

  it('refuses a W-9 that is not certified, a bad address, or unknown fields', async () => {
    const cases: Record<string, unknown>[] = [
      { ...TEST_W9, certify: false },
      { ...TEST_W9, certify: undefined },
      { ...TEST_W9, address: { ...TEST_W9.address, state: 'ZZ' } },
      { ...TEST_W9, address: { ...TEST_W9.address, postalCode: '8200' } },
      { ...TEST_W9, legalName: '' },
      { ...TEST_W9, legalName: 'Ada\u202eLovelace' },
      { ...TEST_W9, tinType: 'VAT' },
      { ...TEST_W9, userId: bob.userId },
    ];
    for (const payload of cases)
      expect((await file(ada, payload)).statusCode, JSON.stringify(payload)).toBe(400);
    expect((await read(ada)).json()).toEqual({ w9: null });
  });

  it('stores the TIN encrypted and answers it masked, here and on every read', async () => {
    const answer = await file(ada, { ...TEST_W9, tin: '123 45 6789' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().w9).toMatchObject({
      legalName: 'Ada Lovelace',
      tinType: 'SSN',
      tin: '***-**-6789',
      address: { line1: '12 Engine Row', city: 'Cheyenne', state: 'WY', postalCode: '82001' },
    });
    expect((await read(ada)).json().w9.tin).toBe('***-**-6789');
    expect((await read(ada, `?userId=${ada.userId}`)).statusCode).toBe(200);

    const [row] = await t.database.db
      .select()
      .from(taxIdentities)
      .where(eq(taxIdentities.userId, ada.userId));
    expect(row?.tinEncrypted).toMatch(/^v1\.[0-9a-f]{8}\./);
    expect(row?.tinEncrypted).not.toContain('123456789');
    const cipher = createTinCipher(t.config.dataEncryption);
    expect(cipher.decrypt(row?.tinEncrypted ?? '', ada.userId)).toBe('123456789');
    // Bound to its owner: the same ciphertext on another customer's row does not decrypt.
    expect(() => cipher.decrypt(row?.tinEncrypted ?? '', bob.userId)).toThrow();
  });

  it('masks an EIN as an EIN, and a second filing replaces the first', async () => {
    const answer = await file(ada, {
      ...TEST_W9,
      legalName: 'Analytical Engines LLC',
      tinType: 'EIN',
      tin: '27-1234567',
    });
    expect(answer.json().w9).toMatchObject({
      tinType: 'EIN',
      tin: '**-***4567',
      legalName: 'Analytical Engines LLC',
    });
    expect(
      await t.database.db.select().from(taxIdentities).where(eq(taxIdentities.userId, ada.userId)),
    ).toHaveLength(1);
    const itin = await file(bob, { ...TEST_W9, tinType: 'ITIN', tin: '912-70-1234' });
    expect(itin.json().w9.tin).toBe('***-**-1234');
  });

  it("never shows one customer another's W-9 (403 for another's id)", async () => {
    const answer = await read(bob, `?userId=${ada.userId}`);
    expect(answer.statusCode).toBe(403);
    expect(answer.body).not.toContain('Analytical');
    expect((await read(bob)).json().w9.legalName).toBe('Ada Lovelace');
  });

  it('never writes a full TIN into the logs', () => {
    const text = logs.join('');
    expect(text).toContain('/api/tax/w9'); // the requests were logged…
    for (const digits of [
      '123456789',
      '271234567',
      '912701234',
      '123 45 6789',
      '123-45-6789',
      '27-1234567',
    ]) {
      expect(text).not.toContain(digits); // …but none of the numbers
    }
  });
});

describe('data encryption keys', () => {
  it('decrypts with a retired key, and tells a rotated value from a current one', () => {
    const oldKey = Buffer.alloc(32, 1);
    const newKey = Buffer.alloc(32, 2);
    const before = createTinCipher({ current: oldKey, previous: [] });
    const stored = before.encrypt('123456789', 'user-1');
    const after = createTinCipher({ current: newKey, previous: [oldKey] });
    expect(after.decrypt(stored, 'user-1')).toBe('123456789');
    expect(after.needsRewrap(stored)).toBe(true);
    expect(after.needsRewrap(after.encrypt('123456789', 'user-1'))).toBe(false);
    expect(() => createTinCipher({ current: newKey, previous: [] }).decrypt(stored, 'user-1')).toThrow(
      /no configured key/,
    );
    // A changed byte fails the GCM tag.
    const parts = stored.split('.');
    parts[4] = Buffer.from('999999999').toString('base64url');
    expect(() => before.decrypt(parts.join('.'), 'user-1')).toThrow();
  });

  it('re-encrypts every stored TIN under the new key after a rotation (tax:rewrap)', async () => {
    const oldKey = t.config.dataEncryption.current;
    const newKey = Buffer.alloc(32, 9);
    const rotated = createTinCipher({ current: newKey, previous: [oldKey] });
    const tax = createTaxService({
      db: t.database.db,
      cipher: rotated,
      currentKey: newKey,
      issuer: { companyName: 'OffZero', postalAddress: 'x', supportEmail: 'y' },
    });
    const rows = await t.database.db.select().from(taxIdentities);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(await tax.rewrapTins()).toBe(rows.length);
    expect(await tax.rewrapTins()).toBe(0);
    const newOnly = createTinCipher({ current: newKey, previous: [] });
    for (const row of await t.database.db.select().from(taxIdentities)) {
      expect(row.tinEncrypted.split('.')[1]).toBe(keyId(newKey));
      expect(newOnly.decrypt(row.tinEncrypted, row.userId)).toMatch(/^\d{9}$/);
      expect(newOnly.decrypt(row.tinEncrypted, row.userId).slice(-4)).toBe(row.tinLast4);
    }
  });
});
