import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema as error } from '@offzero/shared/api/errors';
import { fourEyesPendingSchema } from '@offzero/shared/api/admin';
import {
  jurisdictionSchema,
  jurisdictionsResponseSchema,
  jurisdictionUpdateSchema,
} from '@offzero/shared/places/places';
import { requireAdmin, signedInUser } from '../auth/sessions';
import { adminActionErrorResponses } from '../admin/admin-error-responses';
import type { PlacesService } from './places.service';
import { toJurisdiction } from './places.presenter';

const pendingEditSchema = z.object({
  id: z.string(),
  code: z.string(),
  requestedBy: z.string(),
  requestedAt: z.string(),
  rules: z.record(z.string(), z.unknown()),
});

/**
 * `GET /api/jurisdictions` (public: the KYC form tells a customer of a closed place at once),
 * `GET /api/admin/jurisdictions` (with the edits waiting for a second admin) and
 * `PUT /api/admin/jurisdictions/:code` (four eyes; docs/design.md, "Places and the scam shield").
 */
export const placesRoutes =
  (places: PlacesService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/jurisdictions',
      { schema: { response: { 200: jurisdictionsResponseSchema, 500: error, 503: error } } },
      () => places.inForce(),
    );

    app.get(
      '/api/admin/jurisdictions',
      {
        onRequest: requireAdmin(app),
        schema: {
          response: {
            200: jurisdictionsResponseSchema.extend({ pending: z.array(pendingEditSchema) }),
            ...adminActionErrorResponses,
          },
        },
      },
      () => places.forStaff(),
    );

    app.put(
      '/api/admin/jurisdictions/:code',
      {
        onRequest: requireAdmin(app),
        config: { idempotent: true },
        schema: {
          params: z.object({ code: z.string().min(1).max(20) }),
          body: jurisdictionUpdateSchema,
          response: {
            200: z.object({ message: z.string(), jurisdiction: jurisdictionSchema }),
            202: fourEyesPendingSchema,
            ...adminActionErrorResponses,
          },
        },
      },
      async (request, reply) => {
        const result = await places.edit(signedInUser(request), request.params.code, request.body);
        if ('pending' in result) return reply.code(202).send(result.pending);
        return {
          message: `${result.done.name}'s rules are in force from version ${result.done.version}.`,
          jurisdiction: toJurisdiction(result.done),
        };
      },
    );
  };
