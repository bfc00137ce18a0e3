import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  type CreatePlanRequest,
  createPlanSchema,
  planListSchema,
  planParamsSchema,
  planResponseSchema,
} from '@offzero/shared/api/plans';
import { requireSignedIn, signedInUser } from '../auth/sessions';
import { requireStepUp } from '../passkeys/step-up';
import { errorResponses } from '../http/error-responses';
import type { PlansService } from './plans.service';

const ACTIONS = {
  pause: 'Plan paused. No buy is made until you resume it.',
  resume: 'Plan resumed.',
  cancel: 'Plan cancelled. No more buys will be made.',
} as const;

/**
 * Recurring buys (docs/design.md, "Recurring buys"): create, list, pause, resume, cancel. Every change
 * of a plan goes through `plans.change` (one place a confirmation step can guard them all); another
 * customer's plan id answers 404.
 */
export const planRoutes =
  (plans: PlansService): FastifyPluginAsyncZod =>
  async (app) => {
    const signedIn = { preHandler: requireSignedIn(app) };
    const changed = (...statuses: (400 | 404 | 409)[]) => ({
      200: planResponseSchema,
      ...errorResponses(401, 403, 413, 415, 429, 500, 503, ...statuses),
    });

    app.get(
      '/api/plans',
      { ...signedIn, schema: { response: { 200: planListSchema, ...errorResponses(401, 500, 503) } } },
      async (request) => ({ plans: await plans.list(signedInUser(request).user) }),
    );

    app.post(
      '/api/plans',
      {
        // With a passkey, the plan's amount, schedule and address are confirmed by an assertion made
        // for exactly them (docs/design.md, "Passkeys").
        preHandler: [
          signedIn.preHandler,
          requireStepUp(app, 'plan.create', (request) => {
            const { amountUsd, frequency, payoutAddressId } = request.body as CreatePlanRequest;
            return { amountUsd, frequency, payoutAddressId };
          }),
        ],
        config: { idempotent: true },
        schema: { body: createPlanSchema, response: changed(400, 404) },
      },
      async (request) => {
        const plan = await plans.create(signedInUser(request).user, request.body, request.ip);
        return { plan, message: 'Plan created.' };
      },
    );

    for (const action of ['pause', 'resume', 'cancel'] as const) {
      app.post(
        `/api/plans/:id/${action}`,
        {
          ...signedIn,
          config: { idempotent: true },
          schema: { params: planParamsSchema, response: changed(404, 409) },
        },
        async (request) => {
          const plan = await plans.change(signedInUser(request).user, request.params.id, action);
          return { plan, message: ACTIONS[action] };
        },
      );
    }
  };
