import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createQuoteSchema, quoteResponseSchema } from '@offzero/shared/api/quotes';
import { requireSignedIn, signedInUser } from '../auth/sessions';
import { errorResponses } from '../http/error-responses';
import type { OrderService } from './order.service';
import { toQuoteResponse } from './quote.presenter';

/**
 * `POST /api/quotes` (docs/design.md): locks the server's figures for the signed-in customer until the
 * order session timeout. Idempotent and rate-limited like the other mutations.
 */
export const quoteRoutes =
  (ordersService: OrderService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/quotes',
      {
        preHandler: requireSignedIn(app),
        config: { idempotent: true, blockedPlaces: true },
        schema: {
          body: createQuoteSchema,
          response: {
            200: quoteResponseSchema,
            ...errorResponses(400, 401, 403, 413, 415, 422, 429, 500, 503),
          },
        },
      },
      async (request) => {
        const { user } = signedInUser(request);
        const { quote, terms, lightningFeeBudgetSats } = await ordersService.lockQuote(user, request.body);
        return { quote: toQuoteResponse(quote, terms, lightningFeeBudgetSats) };
      },
    );
  };
