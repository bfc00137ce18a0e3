import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NEVER_SHED } from '../http/load-shedding';
import type { Readiness } from './health.service';

const liveSchema = z.object({ status: z.literal('ok') });

const checkSchema = z.string().describe('"ok", or a short reason');
const readySchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({
    database: checkSchema,
    migrations: checkSchema,
    redis: checkSchema.optional().describe('"ok", or a short reason; only when REDIS_URL is set'),
    process: checkSchema.describe('"ok", or "draining" once the process is shutting down'),
  }),
  database: z.object({ kind: z.enum(['embedded', 'postgres']), up: z.boolean() }),
  mode: z.enum(['demo', 'production']),
});

/** Probes run every few seconds: their requests are logged only when something goes wrong. */
const probeRoute = { logLevel: 'warn', config: NEVER_SHED } as const;

/**
 * `GET /api/health/live`: the process runs (a failure means restart it).
 * `GET /api/health/ready` and `GET /api/health`: send it traffic, or 503 while the database, its
 * migrations or Redis are not there, or while it drains before stopping (DESIGN.md section 7.3).
 */
export const healthRoutes =
  (readiness: Readiness): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/health/live',
      {
        ...probeRoute,
        schema: {
          summary: 'Liveness: the process runs',
          response: { 200: liveSchema },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    for (const url of ['/api/health/ready', '/api/health']) {
      app.get(
        url,
        {
          ...probeRoute,
          schema: {
            summary:
              url === '/api/health'
                ? 'Readiness (same as /api/health/ready)'
                : 'Readiness: database, migrations, Redis and not draining',
            response: {
              200: readySchema,
              503: readySchema.describe('Not ready: each failing check says why'),
            },
          },
        },
        async (_request, reply) => {
          const report = await readiness.check();
          return reply.status(report.status === 'ok' ? 200 : 503).send(report);
        },
      );
    }
  };
