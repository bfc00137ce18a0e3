import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageResponseSchema } from '@offzero/shared/api/accounts';
import { fundingResponseSchema } from '@offzero/shared/api/bank';
import { orderResponseSchema } from '@offzero/shared/api/orders';
import { requireAdmin, requireSignedIn, signedInUser } from '../auth/sessions';
import { errorResponses } from '../http/error-responses';
import { toOrderResponse } from '../orders/order.presenter';
import type { BankFundingService } from './bank-funding.service';
import { bankCreditSchema, toBankCreditView } from './bank-credit.presenter';

const creditParams = z.object({ id: z.uuid() });

/**
 * The customer's own account number (`GET /api/funding`), and the back office's unmatched bank
 * credits, which an operator matches to an order or returns (docs/design.md, "Bank provider").
 */
export const bankFundingRoutes =
  (funding: BankFundingService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/funding',
      {
        preHandler: requireSignedIn(app),
        schema: { response: { 200: fundingResponseSchema, ...errorResponses(401, 403, 503) } },
      },
      async (request) => funding.getFunding(signedInUser(request).user),
    );

    const admin = { preHandler: requireAdmin(app) };
    app.get(
      '/api/admin/bank-credits',
      {
        ...admin,
        schema: {
          querystring: z.object({ status: z.enum(['matched', 'unmatched', 'returned']).optional() }),
          response: {
            200: z.object({ credits: z.array(bankCreditSchema) }),
            ...errorResponses(400, 401, 403),
          },
        },
      },
      async (request) => ({
        credits: (await funding.listCredits(request.query.status)).map(toBankCreditView),
      }),
    );

    app.post(
      '/api/admin/bank-credits/:id/match',
      {
        ...admin,
        schema: {
          params: creditParams,
          body: z.strictObject({ orderId: z.uuid() }),
          response: { 200: orderResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const order = await funding.matchCredit(
          signedInUser(request),
          request.params.id,
          request.body.orderId,
        );
        return { message: 'The credit paid the order.', order: toOrderResponse(order) };
      },
    );

    app.post(
      '/api/admin/bank-credits/:id/return',
      {
        ...admin,
        schema: {
          params: creditParams,
          body: z.strictObject({ reason: z.string().trim().min(1).max(200) }),
          response: { 200: messageResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 503) },
        },
      },
      async (request) => {
        await funding.returnCredit(signedInUser(request), request.params.id, request.body.reason);
        return { message: 'The credit is on its way back to its sender.' };
      },
    );
  };
