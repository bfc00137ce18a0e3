import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  caseDetailSchema,
  caseFiltersSchema,
  caseListSchema,
  caseUpdateAnswerSchema,
  caseUpdateSchema,
} from '@offzero/shared/api/cases';
import { requireAdmin, signedInUser } from '../auth/sessions';
import {
  adminActionErrorResponses,
  adminErrorResponses,
  adminLookupErrorResponses,
} from '../admin/admin-error-responses';
import { toCase, toCaseDetail } from './cases.presenter';
import type { CasesService } from './cases.service';

const caseParams = z.object({ id: z.string().max(100) });

const updateAnswer = {
  open: 'Case is open.',
  reviewing: 'Case is under review.',
  closed: 'Case closed.',
} as const;

/** Monitoring cases in the back office (staff only; the customer's API never mentions them). */
export const caseRoutes =
  (cases: CasesService): FastifyPluginAsyncZod =>
  async (app) => {
    const staffOnly = { onRequest: requireAdmin(app) };

    app.get(
      '/api/admin/cases',
      {
        ...staffOnly,
        schema: { querystring: caseFiltersSchema, response: { 200: caseListSchema, ...adminErrorResponses } },
      },
      async (request) => ({ cases: (await cases.list(request.query)).map(toCase) }),
    );

    app.get(
      '/api/admin/cases/:id',
      {
        ...staffOnly,
        schema: { params: caseParams, response: { 200: caseDetailSchema, ...adminLookupErrorResponses } },
      },
      async (request) => ({ case: toCaseDetail(await cases.get(request.params.id)) }),
    );

    app.post(
      '/api/admin/cases/:id',
      {
        ...staffOnly,
        config: { idempotent: true, multilineFields: ['note'] },
        schema: {
          params: caseParams,
          body: caseUpdateSchema,
          response: { 200: caseUpdateAnswerSchema, ...adminActionErrorResponses },
        },
      },
      async (request) => {
        const updated = await cases.update({
          staff: signedInUser(request),
          caseId: request.params.id,
          change: request.body,
        });
        const { case: found } = await cases.get(updated.id);
        return { message: updateAnswer[updated.status], case: toCase(found) };
      },
    );
  };
