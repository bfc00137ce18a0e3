import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';

interface OpenApiOperation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
}

/**
 * Every `/api` route the app adds, seen by an onRoute hook of our own rather than by @fastify/swagger,
 * so a route the document misses is caught. Fastify announces each new instance on this channel before
 * any plugin loads, so the hook is in place before the first route.
 */
const registered = new Set<string>();
function collectRoutes(message: unknown): void {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api') || route.schema?.hide) return;
    for (const method of [route.method].flat()) {
      // HEAD twins of GET routes are added by Fastify itself.
      if (method === 'HEAD') continue;
      registered.add(`${method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    }
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
  subscribe('fastify.initialization', collectRoutes);
  try {
    t = await createTestApp();
  } finally {
    unsubscribe('fastify.initialization', collectRoutes);
  }
  const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  doc = response.json<OpenApiDocument>();
});
afterAll(async () => t.close());

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
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
    expect(refused).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['message', 'code']),
      properties: {
        message: { type: 'string' },
        code: { enum: expect.arrayContaining(['VALIDATION_FAILED']) },
      },
    });
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
