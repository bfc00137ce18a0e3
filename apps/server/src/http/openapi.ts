import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

/** The OpenAPI 3.1 document, generated from every route's zod schemas. */
export const OPENAPI_JSON_PATH = '/api/openapi.json';
/** Swagger UI reading that document. */
export const API_DOCS_PREFIX = '/api/docs';

/**
 * The API describes itself from the schemas the routes already validate and serialise with, so the
 * document cannot drift from the code. Registered before the routes: @fastify/swagger collects each
 * route as it is added. Routes with `schema.hide` (the documentation's own) are left out.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'OffZero API',
        description:
          'Buy bitcoin with US dollars and sell bitcoin for US dollars. State-changing calls need the ' +
          'CSRF token from `GET /api/csrf` in `X-CSRF-Token` (and its cookie); signed-in calls send the ' +
          'session token as `Authorization: Bearer …`. Every error answer is `{ message, code, errors? }`. ' +
          'The realtime channel (`GET /api/realtime`, a WebSocket) speaks the messages of ' +
          'packages/shared/src/api/realtime.ts.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    // Each operation is filed under the first path segment after /api (orders, admin, kyc…), so the
    // docs read by area instead of one long list.
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const area = /^\/api\/([^/]+)/.exec(input.url)?.[1];
      const tags = (transformed.schema as { tags?: string[] }).tags;
      return area && !tags
        ? { ...transformed, schema: { ...transformed.schema, tags: [area] } }
        : transformed;
    },
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX });

  app.get(OPENAPI_JSON_PATH, { schema: { hide: true } }, async () => app.swagger());
}
