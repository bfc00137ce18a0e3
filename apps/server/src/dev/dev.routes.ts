import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isUuid } from '../auth/sessions';
import { kycStatuses, outboxMessages, users } from '../db/schema';
import { AppError } from '../http/errors';
import type { KycService } from '../kyc/kyc.service';
import { toKycResponse } from '../kyc/kyc.service';

/** Demo helpers under `/api/dev/*`. Registered only in demo mode, so production answers 404. */
export const devRoutes =
  (kyc: KycService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/dev/kyc/decide',
      { schema: { body: z.strictObject({ userId: z.string().max(100), status: z.enum(kycStatuses) }) } },
      async (request) => {
        const { userId, status } = request.body;
        const [customer] = isUuid(userId)
          ? await app.database.db.select({ id: users.id }).from(users).where(eq(users.id, userId))
          : [];
        if (!customer) throw new AppError('NOT_FOUND', 'No customer has this id.');
        return {
          message: `KYC set to ${status}.`,
          ...toKycResponse(await kyc.decide(customer.id, status, 'demo helper')),
        };
      },
    );

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
