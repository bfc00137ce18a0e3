import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@offzero/shared/api/errors';
import { isUnderApi } from './api-path';
import { CSRF_COOKIE, needsCsrfToken } from './csrf';
import { nameSharedSchemasForOpenApi, withoutUnusedComponentSchemas } from './openapi-components';
import { sessionUse } from './route-security';

/** The OpenAPI 3.1 document, generated from every route's zod schemas. */
export const OPENAPI_JSON_PATH = '/api/openapi.json';
/** Swagger UI reading that document. */
export const API_DOCS_PREFIX = '/api/docs';

/** The API's areas (each path's first segment after /api), in the order its documentation lists them. */
const DOCUMENTED_AREAS = [
  'price',
  'quotes',
  'order',
  'payments',
  'payout-addresses',
  'plans',
  'funding',
  'bank',
  'limits',
  'jurisdictions',
  'kyc',
  'user',
  'verification',
  'auth',
  'passkeys',
  'step-up',
  'referral',
  'tax',
  'realtime',
  'app-config',
  'csrf',
  'health',
  'admin',
  'dev',
];

/**
 * The API describes itself from the schemas the routes already validate and serialise with, so the
 * document cannot drift from the code. Registered before the routes: @fastify/swagger collects each
 * route as it is added. Routes with `schema.hide` (the documentation's own) are left out.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  nameSharedSchemasForOpenApi();
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'OffZero API',
        description:
          'Buy bitcoin with US dollars and sell bitcoin for US dollars. State-changing calls need the ' +
          'CSRF token from `GET /api/csrf` in `X-CSRF-Token` (and its cookie); signed-in calls send the ' +
          'session token as `Authorization: Bearer …`. Each operation names what it needs in `security`. ' +
          'Every error answer is `{ message, code, errors? }`. ' +
          'The realtime channel (`GET /api/realtime`, a WebSocket) speaks the messages of ' +
          'packages/shared/src/api/realtime.ts.',
        version: '1.0.0',
      },
      // The areas in the order a reader needs them: the customer's calls first, staff and demo last.
      tags: DOCUMENTED_AREAS.map((name) => ({ name })),
      components: {
        securitySchemes: {
          session: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The session token a sign-in answers with.',
          },
          csrfHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'X-CSRF-Token',
            description: 'The token `GET /api/csrf` answers with, sent back on every state-changing call.',
          },
          csrfCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: CSRF_COOKIE,
            description: 'The same token, in the cookie `GET /api/csrf` sets (a browser sends it itself).',
          },
        },
      },
    },
    // Only the API is described: the web app's pages and files are not operations. Each operation is
    // filed under the first path segment after /api (orders, admin, kyc…), so the docs read by area
    // instead of one long list, and says what it needs: the session, the CSRF token, both or nothing.
    transform: (input) => {
      if (!isUnderApi(input.url)) return { schema: { hide: true }, url: input.url };
      const transformed = jsonSchemaTransform({
        ...input,
        schema: withHookRefusals(input.schema, input.route),
      });
      const schema = transformed.schema as { tags?: string[]; operationId?: string; hide?: boolean };
      if (schema.hide) return transformed;
      const area = /^\/api\/([^/]+)/.exec(input.url)?.[1];
      return {
        ...transformed,
        schema: {
          ...schema,
          tags: schema.tags ?? (area ? [area] : undefined),
          operationId: schema.operationId ?? operationId(input.route.method, input.url),
          security: securityRequirements(input.route),
        },
      };
    },
    transformObject: (document) => withoutUnusedComponentSchemas(jsonSchemaTransformObject(document)),
  });
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX });

  app.get(OPENAPI_JSON_PATH, { schema: { hide: true } }, async () => app.swagger());
}

/**
 * The operation's name for generated clients, from its method and path, so it is unique as the routes
 * are: `GET /api/admin/orders/:id` is `getAdminOrdersById`.
 */
export function operationId(method: string | string[], url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split('/')
    .flatMap((segment) =>
      segment.startsWith(':') ? ['by', segment.slice(1)] : segment.split(/[^A-Za-z0-9]+/),
    )
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1));
  return [[method].flat()[0]!.toLowerCase(), ...words].join('');
}

/**
 * What a caller must send: the session for routes that refuse a caller without one (either way for
 * routes that read it when sent), and the CSRF token, header and cookie, on state-changing calls.
 */
function securityRequirements(route: RouteOptions): Record<string, string[]>[] {
  const csrf: Record<string, string[]> = needsCsrfToken(route) ? { csrfHeader: [], csrfCookie: [] } : {};
  const signedIn: Record<string, string[]> = { session: [], ...csrf };
  switch (sessionUse(route)) {
    case 'required':
      return [signedIn];
    case 'optional':
      return [csrf, signedIn];
    case 'none':
      return Object.keys(csrf).length > 0 ? [csrf] : [];
  }
}

/**
 * The refusals the app's own hooks give before a route's handler runs (403 without the CSRF token, 401
 * without the session), declared on every operation they apply to, as `{ message, code }`.
 */
function withHookRefusals<Schema extends FastifySchema | undefined>(
  schema: Schema,
  route: RouteOptions,
): Schema {
  if (!schema || schema.hide) return schema;
  const response = { ...(schema.response as Record<string, unknown> | undefined) };
  if (needsCsrfToken(route)) response['403'] ??= errorBodySchema;
  if (sessionUse(route) === 'required') response['401'] ??= errorBodySchema;
  return { ...schema, response };
}
