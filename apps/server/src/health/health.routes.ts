import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** `GET /api/health`: ok once the database answers; 503 otherwise, so a load balancer stops sending. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/health', async (_request, reply) => {
    const databaseUp = await app.database.ping();
    return reply.status(databaseUp ? 200 : 503).send({
      status: databaseUp ? 'ok' : 'unavailable',
      database: { kind: app.database.kind, up: databaseUp },
      mode: app.config.mode,
    });
  });
};
