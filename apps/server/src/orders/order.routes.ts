import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { saveOrderSchema, updateOrderSchema } from '@offzero/shared/api/orders';
import { assertOwnId, requireSignedIn, signedInUser } from '../auth/sessions';
import { toOrderResponse } from './order.presenter';
import type { OrderService } from './order.service';

/** `POST /api/order/save`, `POST /api/order/update`, `GET /api/order/list` (spec section 7). */
export const orderRoutes =
  (ordersService: OrderService): FastifyPluginAsyncZod =>
  async (app) => {
    const signedIn = { preHandler: requireSignedIn(app) };

    app.post('/api/order/save', { ...signedIn, schema: { body: saveOrderSchema } }, async (request) => {
      const { user } = assertOwnId(request, request.body.userId);
      const order = await ordersService.save(user, request.body);
      return { message: `Order #${order.id.slice(0, 8)} has been created.`, order: toOrderResponse(order) };
    });

    app.post('/api/order/update', { ...signedIn, schema: { body: updateOrderSchema } }, async (request) => {
      const { user } = signedInUser(request);
      if ('userId' in request.body) assertOwnId(request, request.body.userId);
      const { order, message } = await ordersService.update(user, request.body);
      return { message, order: toOrderResponse(order) };
    });

    app.get(
      '/api/order/list',
      {
        ...signedIn,
        schema: {
          querystring: z.strictObject({
            userId: z.string().max(100),
            limit: z.coerce.number().int().min(1).max(1000).optional(),
          }),
        },
      },
      async (request) => {
        const { user } = assertOwnId(request, request.query.userId);
        const orders = await ordersService.list(user, request.query.limit);
        return { result: { orders: orders.map(toOrderResponse) } };
      },
    );
  };
