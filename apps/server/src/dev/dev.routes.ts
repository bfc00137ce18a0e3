import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { outboxMessages } from '../db/schema';

/** Demo helpers under `/api/dev/*`. Registered only in demo mode, so production answers 404. */
export const devRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/dev/outbox',
    { schema: { querystring: z.strictObject({ to: z.string().trim().max(254).optional() }) } },
    async (request) => {
      const to = request.query.to?.toLowerCase();
      const rows = await app.database.db
        .select()
        .from(outboxMessages)
        .where(to ? eq(outboxMessages.to, to) : undefined)
        .orderBy(desc(outboxMessages.createdAt))
        .limit(100);
      return {
        messages: rows.map((row) => ({
          to: row.to,
          channel: row.channel,
          subject: row.subject,
          text: row.text,
          code: row.code,
          createdAt: row.createdAt.toISOString(),
        })),
      };
    },
  );
};
