import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { planParamsSchema, planResponseSchema } from '@offzero/shared/api/plans';
import { errorResponses } from '../http/error-responses';
import type { PlansService } from './plans.service';

/**
 * The demo's "run now" (docs/design.md, "Recurring buys"): the plan's next scheduled run is made and
 * debited at once, and `nextRunOn` moves on. Registered only in demo mode.
 */
export const planDevRoutes =
  (plans: PlansService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/dev/plans/:id/run',
      {
        schema: {
          params: planParamsSchema,
          response: { 200: planResponseSchema, ...errorResponses(404, 409, 500, 503) },
        },
      },
      async (request) => ({
        plan: await plans.runNow(request.params.id),
        message: 'The next run was made now.',
      }),
    );
  };
