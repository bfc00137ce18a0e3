import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerVerifiedCustomer } from '../test/accounts-helpers';
import { writeBuiltWebAppWithPrerenderedPages } from '../test/built-web-app';
import { buyOrderPayload } from '../test/buy-helpers';
import {
  answersNotMatchingDocument,
  hasOpenApiValidators,
  openApiStructureProblems,
  openApiValidatorComplaint,
  type OpenApiDocument,
  type OpenApiOperation,
  type RecordedAnswer,
} from '../test/openapi-validation';
import { createTestApp, type TestApp } from '../test/test-app';

/** `/api/order/:id` as the document spells it: `/api/order/{id}`. */
const documentPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/**
 * Every `/api` route the app adds, seen by an onRoute hook of our own rather than by @fastify/swagger,
 * so a route the document misses is caught; and every JSON answer the app gives while the tests run,
 * to hold against the document. Fastify announces each new instance on this channel before any plugin
 * loads, so the hooks are in place before the first route.
 */
const registered = new Set<string>();
const answers: RecordedAnswer[] = [];
function watchApp(message: unknown): void {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api') || route.schema?.hide) return;
    for (const method of [route.method].flat()) {
      // HEAD twins of GET routes are added by Fastify itself.
      if (method === 'HEAD') continue;
      registered.add(`${method} ${documentPath(route.url)}`);
    }
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    const json = String(reply.getHeader('content-type') ?? '').startsWith('application/json');
    if (
      route?.startsWith('/api/') &&
      json &&
      typeof payload === 'string' &&
      !request.routeOptions.schema?.hide
    ) {
      answers.push({
        method: request.method,
        path: documentPath(route),
        status: reply.statusCode,
        body: JSON.parse(payload) as unknown,
      });
    }
    return payload;
  });
}

/** `METHOD /path` of each operation in the document. */
function documented(doc: OpenApiDocument): Set<string> {
  const operations = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of Object.keys(item)) operations.add(`${method.toUpperCase()} ${path}`);
  }
  return operations;
}

/** A success answer (2xx, or 101 for the WebSocket) with a schema for its body. */
function hasSuccessSchema(operation: OpenApiOperation): boolean {
  return Object.entries(operation.responses ?? {}).some(
    ([status, response]) =>
      /^(2\d\d|2XX|101)$/.test(status) &&
      Object.values(response.content ?? {}).some((media) => media.schema !== undefined),
  );
}

let t: TestApp;
let doc: OpenApiDocument;

beforeAll(async () => {
  subscribe('fastify.initialization', watchApp);
  try {
    // With the built web app served, as `npm start` runs it: its pages are routes too.
    t = await createTestApp({ WEB_DIST_DIR: writeBuiltWebAppWithPrerenderedPages() });
  } finally {
    unsubscribe('fastify.initialization', watchApp);
  }
  const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode, response.body).toBe(200);
  doc = response.json<OpenApiDocument>();
  // The app and its description are made once for the file; a busy machine takes a while over both.
}, 120_000);
afterAll(async () => t.close());

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document while the web app is served, describing none of its pages', async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    // The pages are really served beside it.
    expect((await t.app.inject({ method: 'GET', url: '/about-us' })).statusCode).toBe(200);
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/api/'))).toEqual([]);
  });

  it.skipIf(!hasOpenApiValidators)(
    'passes an independent OpenAPI 3.1 validator',
    () => {
      expect(openApiValidatorComplaint(doc)).toBeNull();
    },
    60_000,
  );

  it('names every operation once and gives each a security requirement of declared schemes', () => {
    expect(openApiStructureProblems(doc)).toEqual([]);
  });

  it('says which operations need the session, the CSRF token, both, or nothing', () => {
    const securityOf = (path: string, method: string) => doc.paths[path]?.[method]?.security;
    const csrf = { csrfHeader: [], csrfCookie: [] };
    expect(securityOf('/api/price', 'get')).toEqual([]);
    expect(securityOf('/api/user/login-otp/send', 'post')).toEqual([csrf]);
    expect(securityOf('/api/order/list', 'get')).toEqual([{ session: [] }]);
    expect(securityOf('/api/order/save', 'post')).toEqual([{ session: [], ...csrf }]);
    expect(securityOf('/api/admin/orders/{id}/mark-paid', 'post')).toEqual([{ session: [], ...csrf }]);
    // Public, with more for a signed-in caller.
    expect(securityOf('/api/admin/settings', 'get')).toEqual([{}, { session: [] }]);
    // Signed by the provider instead.
    expect(securityOf('/api/payments/paypal/webhook', 'post')).toEqual([]);
    expect(doc.paths['/api/admin/orders/{id}']?.get?.operationId).toBe('getAdminOrdersById');
  });

  it('refuses a state-changing call without the CSRF token exactly where the document asks for it', async () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'get') continue;
        const url = path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
        const response = await t.app.inject({ method: method.toUpperCase() as 'POST', url, payload: {} });
        const security = operation.security ?? [];
        const asksForToken =
          security.length > 0 && security.every((requirement) => 'csrfHeader' in requirement);
        const refused =
          response.statusCode === 403 && response.json<{ code: string }>().code === 'CSRF_INVALID';
        expect(refused, `${method.toUpperCase()} ${path}: ${response.statusCode}`).toBe(asksForToken);
      }
    }
  });

  it('refuses a read without a session exactly where the document asks for one', async () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      const operation = item.get;
      if (!operation || path === '/api/realtime') continue;
      const url = path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000');
      const response = await t.app.inject({ method: 'GET', url });
      const security = operation.security ?? [];
      const needsSession = security.length > 0 && security.every((requirement) => 'session' in requirement);
      // A read whose query misses a required parameter is refused for that first.
      const queryRequired = (operation.parameters ?? []).some(
        (parameter) => parameter.in === 'query' && parameter.required,
      );
      const refused = response.statusCode === 401 || (queryRequired && response.statusCode === 400);
      expect(refused, `GET ${path}: ${response.statusCode}`).toBe(needsSession);
    }
  });

  it('lists every /api route the app registers, and no other', () => {
    // Sanity: the hook saw the app's routes, dev helpers included (demo mode).
    expect(registered.size).toBeGreaterThan(40);
    expect(registered).toContain('POST /api/user/login-otp/verify');
    expect(registered).toContain('GET /api/realtime');
    expect([...documented(doc)].sort()).toEqual([...registered].sort());
  });

  it('gives every operation a response schema for its success answer', () => {
    const missing = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => !hasSuccessSchema(operation))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it('files each operation under its area of the API', () => {
    const tagsOf = (path: string, method: string) =>
      (doc.paths[path]?.[method] as { tags?: string[] } | undefined)?.tags;
    expect(tagsOf('/api/order/save', 'post')).toEqual(['order']);
    expect(tagsOf('/api/admin/orders', 'get')).toEqual(['admin']);
    expect(tagsOf('/api/user/login-otp/verify', 'post')).toEqual(['user']);
  });

  it('describes error answers as { message, code, errors? } where a route declares them', () => {
    const login = doc.paths['/api/user/login-otp/verify']?.post;
    const refused = login?.responses?.['400']?.content?.['application/json']?.schema;
    expect(refused).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    expect(doc.components?.schemas?.ErrorBody).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['message', 'code']),
      properties: {
        message: { type: 'string' },
        code: { enum: expect.arrayContaining(['VALIDATION_FAILED']) },
      },
    });
  });

  it('names each shared answer shape once, as a component every use points to', () => {
    const schemas = doc.components?.schemas ?? {};
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(['ErrorBody', 'Order', 'AdminOrder']));
    const text = JSON.stringify(doc);
    const saved =
      doc.paths['/api/order/save']?.post?.responses?.['200']?.content?.['application/json']?.schema;
    expect(saved).toMatchObject({ properties: { order: { $ref: '#/components/schemas/Order' } } });
    // Every named component is used somewhere, and none is left over from the request side.
    for (const id of Object.keys(schemas)) expect(text).toContain(`"#/components/schemas/${id}"`);
    // Inlined at every use the document weighed nearly 1 MB.
    expect(text.length).toBeLessThan(400_000);
  });
});

describe('GET /api/docs', () => {
  it('serves Swagger UI, whose scripts and styles the content security policy allows', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    // Only scripts of our own origin: the page has no inline script for the policy to block.
    const scripts = [...page.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(attributes).toMatch(/src="\.\/static\//);
      expect(inline!.trim()).toBe('');
    }
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self'");

    for (const asset of ['swagger-ui-bundle.js', 'swagger-initializer.js', 'swagger-ui.css']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/docs/static/${asset}` });
      expect(response.statusCode, asset).toBe(200);
    }
    // The initializer points the UI at the document this app serves.
    const initializer = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    const json = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(json.statusCode).toBe(200);
    expect(json.json<OpenApiDocument>().openapi).toBe(doc.openapi);
    expect(initializer.body).toContain('json');
  });
});

describe('real answers', () => {
  it.skipIf(!hasOpenApiValidators)(
    'match the schemas the document declares for their operation and status',
    async () => {
      // A visitor, then a customer's way to a saved buy, with some refusals on the way; the answers
      // of every test above count too.
      for (const url of [
        '/api/csrf',
        '/api/price',
        '/api/app-config',
        '/api/admin/settings',
        '/api/health',
      ]) {
        await t.app.inject({ method: 'GET', url });
      }
      const customer = await registerVerifiedCustomer(t, 'openapi-answers@example.com');
      const signedIn = { headers: customer.auth };
      await t.app.inject({ method: 'GET', url: '/api/admin/settings', ...signedIn });
      await t.app.inject({ method: 'GET', url: `/api/user/${customer.userId}`, ...signedIn });
      await t.app.inject({ method: 'GET', url: '/api/limits', ...signedIn });
      await t.request({
        method: 'POST',
        url: '/api/quotes',
        ...signedIn,
        payload: { type: 'buy', value: 50 },
      });
      const saved = await t.request({
        method: 'POST',
        url: '/api/order/save',
        ...signedIn,
        payload: await buyOrderPayload(t, customer, 50),
      });
      expect(saved.statusCode, saved.body).toBe(200);
      const orderId = saved.json<{ order: { _id: string } }>().order._id;
      await t.app.inject({ method: 'GET', url: `/api/order/${orderId}/timeline`, ...signedIn });
      await t.app.inject({ method: 'GET', url: '/api/order/list', ...signedIn });
      const unknownOrder = '00000000-0000-4000-8000-000000000000';
      await t.app.inject({ method: 'GET', url: `/api/order/${unknownOrder}/timeline`, ...signedIn });
      await t.request({ method: 'POST', url: '/api/order/save', ...signedIn, payload: { type: 'buy' } });
      await t.app.inject({ method: 'GET', url: '/api/payout-addresses' });
      await t.app.inject({ method: 'POST', url: '/api/order/save', ...signedIn, payload: {} });

      const statuses = new Set(answers.map((answer) => answer.status));
      expect(answers.length).toBeGreaterThan(20);
      expect([...statuses]).toEqual(expect.arrayContaining([200, 400, 401, 403, 404]));
      expect(answersNotMatchingDocument(doc, answers)).toEqual([]);
    },
    60_000,
  );
});
