import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { kycResponseSchema, kycStatusSchema } from '@offzero/shared/api/kyc';
import { toKycResponse } from '../kyc/kyc.presenter';
import type { DevService } from './dev.service';
import { errorResponses } from '../http/error-responses';

const outboxMessageSchema = z.object({
  to: z.string(),
  channel: z.enum(['email', 'sms']),
  subject: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  createdAt: z.string(),
});

/** Demo helpers under `/api/dev/*`. Registered only in demo mode, so production answers 404. */
export const devRoutes =
  (dev: DevService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/dev/kyc/decide',
      {
        schema: {
          body: z.strictObject({ userId: z.string().max(100), status: kycStatusSchema }),
          response: {
            200: kycResponseSchema.extend({ message: z.string() }),
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request) => {
        const { userId, status } = request.body;
        return {
          message: `KYC set to ${status}.`,
          ...toKycResponse(await dev.decideKyc(userId, status)),
        };
      },
    );

    app.get(
      '/api/dev/outbox',
      {
        schema: {
          querystring: z.strictObject({ to: z.string().trim().max(254).optional() }),
          response: { 200: z.object({ messages: z.array(outboxMessageSchema) }), ...errorResponses(400) },
        },
      },
      async (request) => {
        const rows = await dev.outbox(request.query.to);
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
