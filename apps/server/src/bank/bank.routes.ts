import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '@offzero/shared/api/accounts';
import { routingNumberParamsSchema, routingNumberResponseSchema } from '@offzero/shared/api/bank';
import { requireSignedIn } from '../auth/sessions';
import { errorResponses } from '../http/error-responses';
import type { BankProvider } from './bank-provider';
import type { BankWebhooks } from './bank-webhooks';
import { lookUpRoutingNumber } from './routing-lookup';

/** The bank's webhook and the routing-number look-up (docs/design.md, "Bank provider"). */
export const bankRoutes =
  (bank: BankProvider, webhooks: BankWebhooks): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/bank/routing/:routingNumber',
      {
        preHandler: requireSignedIn(app),
        schema: {
          params: routingNumberParamsSchema,
          response: { 200: routingNumberResponseSchema, ...errorResponses(400, 401, 404, 503) },
        },
      },
      async (request) => lookUpRoutingNumber(bank, request.params.routingNumber),
    );

    // The bank's webhook: it proves itself by the bank's signature over the exact bytes, so it needs no
    // CSRF token and keeps the raw body.
    await app.register(async (webhook) => {
      webhook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
        done(null, body),
      );
      webhook.post(
        '/api/bank/webhook',
        {
          config: { csrf: false },
          schema: {
            response: { 200: messageResponseSchema, ...errorResponses(400, 401, 413, 415, 500, 503) },
          },
        },
        async (request) => {
          const outcome = await webhooks.receive(request.body as Buffer, request.headers);
          return { message: outcome === 'replay' ? 'Already processed.' : 'Received.' };
        },
      );
    });
  };
