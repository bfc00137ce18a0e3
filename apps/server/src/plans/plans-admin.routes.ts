import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { adminPlanListSchema } from '@offzero/shared/api/plans';
import { adminErrorResponses } from '../admin/admin-error-responses';
import { requireAdmin } from '../auth/sessions';
import type { PlansService } from './plans.service';

/** The back office's recurring buys (docs/design.md, "Recurring buys"): plans, runs, holds and returns. */
export const adminPlanRoutes =
  (plans: PlansService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/plans',
      {
        onRequest: requireAdmin(app),
        schema: { response: { 200: adminPlanListSchema, ...adminErrorResponses } },
      },
      async () => ({ plans: await plans.listAll() }),
    );
  };
