import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { limitsResponseSchema } from '@offzero/shared/api/limits';
import { centsToUsdNumber } from '@offzero/shared/money/money';
import { requireSignedIn, signedInUser } from '../auth/sessions';
import { errorResponses } from '../http/error-responses';
import type { LimitsService } from './limits.service';

/**
 * `GET /api/limits` (DESIGN.md 7.9): the signed-in customer's own tier and windows. It takes no id,
 * so no customer can ask for another's.
 */
export const limitsRoutes =
  (limits: LimitsService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/limits',
      {
        preHandler: requireSignedIn(app),
        schema: { response: { 200: limitsResponseSchema, ...errorResponses(401, 403, 500, 503) } },
      },
      async (request) => {
        const { user } = signedInUser(request);
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
