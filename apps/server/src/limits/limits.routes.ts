import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { limitsResponseSchema } from '@offzero/shared/api/limits';
import { centsToUsdNumber } from '@offzero/shared/money/money';
import { z } from 'zod';
import { assertOwnId, requireSignedIn, signedInUser } from '../auth/sessions';
import { errorResponses } from '../http/error-responses';
import type { LimitsService } from './limits.service';

/**
 * `GET /api/limits` (docs/design.md): the signed-in customer's own tier and windows. A `userId` in the
 * query, like the other customer calls carry, must be their own (403 otherwise).
 */
export const limitsRoutes =
  (limits: LimitsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/limits',
      {
        preHandler: requireSignedIn(app),
        schema: {
          querystring: z.strictObject({ userId: z.string().max(100).optional() }),
          response: { 200: limitsResponseSchema, ...errorResponses(400, 401, 403, 500, 503) },
        },
      },
      async (request) => {
        const { userId } = request.query;
        const { user } = userId === undefined ? signedInUser(request) : assertOwnId(request, userId);
        const { tier, windows } = await limits.forCustomer(user.id);
        return {
          tier,
          windows: windows.map((state) => ({
            window: state.window,
            limitUsd: centsToUsdNumber(state.limitCents),
            usedUsd: centsToUsdNumber(state.usedCents),
            remainingUsd: centsToUsdNumber(state.remainingCents),
          })),
        };
      },
    );
  };
