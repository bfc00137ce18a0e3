import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { kycResponseSchema, kycStatusSchema } from '@offzero/shared/api/kyc';
import { toKycResponse } from '../kyc/kyc.presenter';
import type { DevService } from './dev.service';
import { errorResponses } from '../http/error-responses';
import { AppError } from '../http/errors';

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
          body: z.strictObject({
            userId: z.string().max(100),
            status: kycStatusSchema,
            residenceState: z.string().max(10).optional(),
            fullName: z.string().trim().min(1).max(120).optional(),
            approvedAt: z.iso.datetime({ offset: true }).optional(),
          }),
          response: {
            200: kycResponseSchema.extend({ message: z.string() }),
            ...errorResponses(400, 403, 404),
          },
        },
      },
      async (request) => {
        const { userId, status, ...extra } = request.body;
        return {
          message: `KYC set to ${status}.`,
          ...toKycResponse(await dev.decideKyc(userId, status, extra)),
        };
      },
    );

    app.post(
      '/api/dev/paypal/captures/:captureId/refund',
      {
        schema: {
          params: z.object({ captureId: z.string().min(1).max(100) }),
          response: { 200: z.object({ message: z.string() }), ...errorResponses(400, 404, 409, 500, 503) },
        },
      },
      async (request) => {
        const delivery = await dev.refundPayPalCapture(request.params.captureId);
        // The sandbox sends its webhook to the same receiver PayPal's would reach.
        const sent = await app.inject({
          method: 'POST',
          url: '/api/payments/paypal/webhook',
          headers: { ...delivery.headers, 'content-type': 'application/json' },
          payload: delivery.rawBody,
        });
        if (sent.statusCode !== 200) {
          request.log.error({ status: sent.statusCode, body: sent.body }, 'sandbox refund webhook refused');
          throw new AppError('UNAVAILABLE', 'The refund webhook was refused; see the server log.');
        }
        return { message: 'Refunded in the PayPal sandbox; its webhook was delivered.' };
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
