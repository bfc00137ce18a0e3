import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NEVER_SHED } from '../http/load-shedding';
import type { Readiness } from './health.service';

const liveSchema = z.object({ status: z.literal('ok') });

const checkSchema = z.string().describe('"ok", or a short reason');
const readySchema = z.object({
  status: z
    .enum(['ok', 'degraded', 'unavailable'])
    .describe('"degraded": ready (200), with Redis down; the API serves on without it'),
  checks: z.object({
    database: checkSchema,
    migrations: checkSchema,
    redis: checkSchema
      .optional()
      .describe('"ok", or "degraded: <reason>" while Redis does not answer; only when REDIS_URL is set'),
    process: checkSchema.describe('"ok", or "draining" once the process is shutting down'),
  }),
  database: z.object({ kind: z.enum(['embedded', 'postgres']), up: z.boolean() }),
  mode: z.enum(['demo', 'production']),
});

/** Probes run every few seconds: their requests are logged only when something goes wrong. */
const probeRoute = { logLevel: 'warn', config: NEVER_SHED } as const;

/**
 * `GET /api/health/live`: the process runs (a failure means restart it).
 * `GET /api/health/ready` and `GET /api/health`: send it traffic, or 503 while the database or its
 * migrations are not there, or while it drains before stopping (docs/design.md). Redis down
 * leaves it ready, reported as degraded: every process would lose it at once, and each serves on.
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
                : 'Readiness: database, migrations and not draining; Redis reported, degraded if down',
            response: {
              200: readySchema,
              503: readySchema.describe('Not ready: each failing check says why'),
            },
          },
        },
        async (_request, reply) => {
          const report = await readiness.check();
          return reply.status(report.status === 'unavailable' ? 503 : 200).send(report);
        },
      );
    }
  };
