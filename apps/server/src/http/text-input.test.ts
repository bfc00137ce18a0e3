import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { logIn, registerCustomer, type RegisteredCustomer } from '../test/accounts-helpers';
import { DEMO_ADMIN_EMAIL } from '../config/config';
import { firstForbiddenField, hasForbiddenCharacters } from './text-input';
import { REFUSED_ADDRESS_TEXT } from '../web/refusal-page';
import { expectRefusalPage } from '../test/refusal-page-assertions';

/** docs/design.md: control and bidirectional characters are refused in every text field. */

const NUL = '\u0000';
const CRLF = '\r\n';
const RIGHT_TO_LEFT_OVERRIDE = '\u202e';
const REFUSED = { NUL, CRLF, RIGHT_TO_LEFT_OVERRIDE, DEL: '\u007f', ISOLATE: '\u2066' };
const tainted = (bad: string) => `Ada${bad}x`;

interface SweptRoute {
  method: string;
  url: string;
  body: unknown;
  querystring: unknown;
  multilineFields: readonly string[];
}

/** Every route the app adds, with its schemas, seen by an onRoute hook (as openapi.test.ts does). */
const routes: SweptRoute[] = [];
function collectRoutes(message: unknown): void {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        body: route.schema?.body,
        querystring: route.schema?.querystring,
        multilineFields: route.config?.multilineFields ?? [],
      });
    }
  });
}

/** The bits of a zod schema's definition this walk needs. */
interface SchemaDef {
  type: string;
  shape?: Record<string, { _zod: { def: SchemaDef } }>;
  innerType?: { _zod: { def: SchemaDef } };
  in?: { _zod: { def: SchemaDef } };
  options?: { _zod: { def: SchemaDef } }[];
  left?: { _zod: { def: SchemaDef } };
  right?: { _zod: { def: SchemaDef } };
}

/** Dotted paths of a body schema's fields (objects opened, wrappers and unions looked through). */
function fieldPaths(schema: unknown, prefix = ''): string[] {
  const def = (schema as { _zod?: { def: SchemaDef } } | undefined)?._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, inner]) => {
        const path = prefix === '' ? key : `${prefix}.${key}`;
        const nested = fieldPaths(inner, path);
        return nested.length > 0 ? nested : [path];
      });
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return fieldPaths(def.innerType, prefix);
    case 'pipe':
      return fieldPaths(def.in, prefix);
    case 'union':
      return [...new Set((def.options ?? []).flatMap((option) => fieldPaths(option, prefix)))];
    case 'intersection':
      return [...new Set([...fieldPaths(def.left, prefix), ...fieldPaths(def.right, prefix)])];
    default:
      return [];
  }
}

/** A body with `text` at `path` and a harmless word in every other field. */
function bodyWith(paths: string[], path: string, text: string): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const each of paths) {
    const keys = each.split('.');
    let node = body;
    for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
    node[keys.at(-1)!] = each === path ? text : 'x';
  }
  return body;
}

let t: TestApp;
let admin: RegisteredCustomer;
let customer: RegisteredCustomer;

beforeAll(async () => {
  subscribe('fastify.initialization', collectRoutes);
  try {
    t = await createTestApp();
  } finally {
    unsubscribe('fastify.initialization', collectRoutes);
  }
  admin = await logIn(t, DEMO_ADMIN_EMAIL);
  customer = await registerCustomer(t, 'text-input@example.com');
});
afterAll(async () => t.close());

function expectRefused(response: { statusCode: number; body: string }, field: string, label: string): void {
  expect(response.statusCode, `${label}: ${response.body}`).toBe(400);
  const answer = JSON.parse(response.body) as {
    message: string;
    code: string;
    errors?: Record<string, string>;
  };
  expect(answer.code, label).toBe('VALIDATION_FAILED');
  expect(answer.message, label).toBe(`Remove invisible or control characters from ${field}.`);
  expect(answer.errors?.[field], label).toBe('Remove invisible or control characters.');
}

describe('the character rule', () => {
  it('refuses C0 controls, DEL and bidirectional controls, and allows line breaks only where asked', () => {
    for (const bad of Object.values(REFUSED)) expect(hasForbiddenCharacters(tainted(bad))).toBe(true);
    expect(hasForbiddenCharacters('Ada Lovelace, 12 Engine Row — Zürich ✓ 日本')).toBe(false);
    expect(hasForbiddenCharacters('line one\r\nline two\tend', true)).toBe(false);
    expect(hasForbiddenCharacters(`a${NUL}`, true)).toBe(true);
    expect(hasForbiddenCharacters(`a${RIGHT_TO_LEFT_OVERRIDE}`, true)).toBe(true);
  });

  it('names the field by its dotted path, keys included, and survives deep nesting', () => {
    expect(firstForbiddenField({ bankAccount: { account_name: tainted(NUL) } })).toBe(
      'bankAccount.account_name',
    );
    expect(firstForbiddenField({ items: ['ok', tainted(CRLF)] })).toBe('items.1');
    expect(firstForbiddenField({ [tainted(NUL)]: 'x' })).toBe(tainted(NUL));
    expect(firstForbiddenField({ note: 'a\nb' }, new Set(['note']))).toBeUndefined();
    expect(firstForbiddenField({ other: 'a\nb' }, new Set(['note']))).toBe('other');
    let deep: unknown = tainted(NUL);
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(firstForbiddenField(deep)).toBe(Array.from({ length: 100_000 }, () => '0').join('.'));
  });
});

describe('every route', () => {
  it('refuses each refused character in each body field with 400 VALIDATION_FAILED, never a 500', async () => {
    const apiRoutes = routes.filter((route) => route.url.startsWith('/api/'));
    expect(apiRoutes.length).toBeGreaterThan(40);
    let checked = 0;
    let multiline = 0;
    const multilineLabels: string[] = [];
    for (const route of apiRoutes) {
      const paths = fieldPaths(route.body);
      const url = route.url.replace(/:(\w+)/g, 'x');
      for (const path of paths) {
        for (const [name, bad] of Object.entries({ NUL, CRLF, RIGHT_TO_LEFT_OVERRIDE })) {
          const response = await t.request({
            method: route.method,
            url,
            headers: admin.auth,
            payload: bodyWith(paths, path, tainted(bad)),
          });
          const label = `${route.method} ${route.url} ${path} ${name}`;
          if (bad === CRLF && route.multilineFields.includes(path)) {
            // Staff notes and reasons may hold line breaks: past the character rule (unknown order or user).
            expect(response.statusCode, label).not.toBe(500);
            expect(response.body, label).not.toMatch(/invisible or control characters/);
            multiline += 1;
            multilineLabels.push(label);
            continue;
          }
          expectRefused(response, path, label);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
    // Cancel, mark paid, both payouts, refund BTC, record a USD refund and resolve flag; the KYC
    // decision; disable, enable, restrict, lift a restriction and move between tiers; a case note; and
    // a pasted signed PSBT (base64 wrapped over lines, as wallets export it).
    expect(multiline, multilineLabels.join('\n')).toBe(15);
  });

  it('refuses them in query strings and path parameters too, never a 500', async () => {
    let refused = 0;
    for (const route of routes.filter((each) => each.url.startsWith('/api/'))) {
      const queryKeys = fieldPaths(route.querystring);
      const params = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]!);
      for (const bad of [NUL, CRLF, RIGHT_TO_LEFT_OVERRIDE]) {
        const encoded = encodeURIComponent(tainted(bad));
        for (const key of queryKeys) {
          const url = `${route.url.replace(/:(\w+)/g, 'x')}?${key}=${encoded}`;
          const response = await t.request({ method: route.method, url, headers: admin.auth });
          // A guard that looks at the id before validation (your own account only) may answer first.
          if (response.statusCode === 403) continue;
          expectRefused(response, key, `${route.method} ${url}`);
          refused += 1;
        }
        for (const param of params) {
          const url = route.url.replace(/:(\w+)/g, (_match, name: string) =>
            name === param ? encoded : 'x',
          );
          const response = await t.request({ method: route.method, url, headers: admin.auth });
          // A guard that looks at the id before validation (your own account only) may answer first.
          if (response.statusCode === 403) continue;
          expectRefused(response, param, `${route.method} ${url}`);
          refused += 1;
        }
      }
    }
    expect(refused).toBeGreaterThan(30);
  });

  it("tells a browser of a refused character in a page's address with a page, and the API with JSON", async () => {
    const key = '<b>from</b>';
    const page = await t.request({
      method: 'GET',
      url: `/about-us?${encodeURIComponent(key)}=${encodeURIComponent(tainted(NUL))}`,
    });
    expectRefusalPage(page, {
      status: 400,
      heading: 'This address cannot be opened',
      text: REFUSED_ADDRESS_TEXT,
    });
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<a href="/">Go to the home page</a>');
    // Nothing of the address is written into the page.
    expect(page.body).not.toContain('<b>');

    for (const url of [`/api/price?from=${encodeURIComponent(tainted(NUL))}`, '/API/price?from=%00']) {
      const api = await t.request({ method: 'GET', url });
      expect(api.statusCode, url).toBe(400);
      expect(api.json(), url).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
  });

  it('answers a NUL in a path with 400 or 404, never 500, signed in or not', async () => {
    for (const url of ['/api/order/%00', '/api/user/%00', '/api/kyc/%00', '/api/admin/orders/%00', '/%00']) {
      for (const headers of [{}, admin.auth, customer.auth]) {
        for (const method of ['GET', 'POST'] as const) {
          const response = await t.request({
            method,
            url,
            headers,
            payload: method === 'POST' ? {} : undefined,
          });
          expect([400, 401, 403, 404], `${method} ${url}`).toContain(response.statusCode);
        }
      }
    }
  });
});

describe('the fields the specification names', () => {
  const cases: { label: string; method: 'POST' | 'PUT'; url: string; field: string; body: () => object }[] = [
    {
      label: 'registration e-mail',
      method: 'POST',
      url: '/api/verification/email/otp',
      field: 'email',
      body: () => ({ email: 'new@example.com', purpose: 'new account' }),
    },
    {
      label: 'login e-mail',
      method: 'POST',
      url: '/api/user/login-otp/send',
      field: 'email',
      body: () => ({ email: 'someone@example.com' }),
    },
    {
      label: 'profile first name',
      method: 'POST',
      url: '/api/user/profile',
      field: 'firstName',
      body: () => ({ firstName: 'Ada', lastName: 'Lovelace' }),
    },
    {
      label: 'profile last name',
      method: 'POST',
      url: '/api/user/profile',
      field: 'lastName',
      body: () => ({ firstName: 'Ada', lastName: 'Lovelace' }),
    },
    ...['account_name', 'account_number', 'bank_name', 'address', 'routing_number', 'swift'].map((key) => ({
      label: `bank account ${key}`,
      method: 'POST' as const,
      url: '/api/user/settings/bank/save',
      field: `bankAccount.${key}`,
      body: () => ({
        userId: customer.userId,
        bankAccount: {
          account_name: 'Ada Lovelace',
          account_number: '000111222333',
          bank_name: 'First Analytical Bank',
          address: '12 Engine Row, Cheyenne, WY',
          routing_number: '021000021',
          swift: 'FANBUS33',
        },
      }),
    })),
    {
      label: 'Zelle e-mail',
      method: 'POST',
      url: '/api/user/settings/zelle/save',
      field: 'zelleEmail',
      body: () => ({ userId: customer.userId, zelleEmail: 'ada@example.com' }),
    },
    {
      label: 'wallet address',
      method: 'POST',
      url: '/api/user/settings/save',
      field: 'walletAddress',
      body: () => ({ userId: customer.userId, walletAddress: 'tb1qn22l4fxz609uc3ztl0apnh6hq66efmws4x0vvc' }),
    },
    {
      label: 'bank reference',
      method: 'POST',
      url: '/api/order/update',
      field: 'bankTxn',
      body: () => ({ _id: '00000000-0000-4000-8000-000000000000', bankTxn: 'WIRE-REF-1234' }),
    },
    {
      label: 'admin settings text (Zelle payment address)',
      method: 'PUT',
      url: '/api/admin/settings',
      field: 'zelle.payment_address',
      body: () => ({ zelle: { payment_address: 'pay@offzero.example' } }),
    },
    {
      label: 'admin settings text (wire bank address)',
      method: 'PUT',
      url: '/api/admin/settings',
      field: 'wire.bank_address',
      body: () => ({ wire: { bank_address: '1 Main St' } }),
    },
  ];

  for (const { label, method, url, field, body } of cases) {
    it(`refuses NUL, CR/LF and U+202E in the ${label}`, async () => {
      for (const [name, bad] of Object.entries({ NUL, CRLF, RIGHT_TO_LEFT_OVERRIDE })) {
        const payload = structuredClone(body()) as Record<string, unknown>;
        const keys = field.split('.');
        let node = payload;
        for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
        node[keys.at(-1)!] = tainted(bad);
        const who = url.startsWith('/api/admin') ? admin : customer;
        const response = await t.request({ method, url, headers: who.auth, payload });
        expectRefused(response, field, `${label} ${name}`);
      }
    });
  }

  it('lets staff reasons and notes keep line breaks, but never NUL or bidirectional controls', async () => {
    const url = '/api/admin/orders/00000000-0000-4000-8000-000000000000/cancel';
    const multiline = await t.request({
      method: 'POST',
      url,
      headers: admin.auth,
      payload: { reason: 'Customer asked.\r\nSee ticket 12.' },
    });
    // Past the character rule: the order does not exist.
    expect(multiline.statusCode).toBe(404);
    for (const bad of [NUL, RIGHT_TO_LEFT_OVERRIDE]) {
      const response = await t.request({
        method: 'POST',
        url,
        headers: admin.auth,
        payload: { reason: `Customer asked${bad}.` },
      });
      expectRefused(response, 'reason', 'cancel reason');
    }
    const kycReason = await t.request({
      method: 'POST',
      url: `/api/admin/kyc/${customer.userId}`,
      headers: admin.auth,
      payload: { status: 'RED', reason: `Blurry${NUL}` },
    });
    expectRefused(kycReason, 'reason', 'KYC rejection reason');
  });

  it('refuses them in the KYC form fields (multipart)', async () => {
    const fields = {
      legalName: 'Ada Lovelace',
      dateOfBirth: '1990-12-10',
      country: 'US',
      residenceState: 'CA',
      documentType: 'passport',
      documentNumber: 'AB123456',
    };
    for (const field of Object.keys(fields)) {
      for (const bad of [NUL, CRLF, RIGHT_TO_LEFT_OVERRIDE]) {
        const form = new FormData();
        for (const [key, value] of Object.entries(fields)) {
          form.append(key, key === field ? `${value}${bad}` : value);
        }
        const request = new Request('http://local/', { method: 'POST', body: form });
        const response = await t.request({
          method: 'POST',
          url: '/api/kyc/local/submit',
          headers: { ...customer.auth, 'content-type': request.headers.get('content-type')! },
          payload: Buffer.from(await request.arrayBuffer()),
        });
        expectRefused(response, field, `KYC ${field}`);
      }
    }
  });
});
