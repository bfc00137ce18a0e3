import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { orderIdParamsSchema, orderResponseSchema } from '@offzero/shared/api/orders';
import { SCAM_MESSAGES } from '@offzero/shared/places/scam-shield';
import { requireSignedIn, signedInUser } from '../auth/sessions';
import { errorResponses } from '../http/error-responses';
import { toOrderResponse } from '../orders/order.presenter';
import type { OrderService } from '../orders/order.service';

/**
 * `POST /api/order/:id/scam-cancel`: "Cancel — I think this is a scam" (docs/design.md, "Places and the
 * scam shield"). Another customer's order answers 404; a buy whose payout started, 409.
 */
export const scamShieldRoutes =
  (ordersService: OrderService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/order/:id/scam-cancel',
      {
        preHandler: requireSignedIn(app),
        config: { idempotent: true },
        schema: {
          params: orderIdParamsSchema,
          response: {
            200: orderResponseSchema,
            ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500, 503),
          },
        },
      },
      async (request) => {
        const { user } = signedInUser(request);
        const { order } = await ordersService.cancelAsScam(user, request.params.id);
        return { message: SCAM_MESSAGES.cancelled, order: toOrderResponse(order) };
      },
    );
  };
