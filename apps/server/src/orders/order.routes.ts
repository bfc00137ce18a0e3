import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorBodySchema as error } from '@offzero/shared/api/errors';
import {
  cancelOrderSchema,
  orderListQuerySchema,
  orderIdParamsSchema,
  orderListResponseSchema,
  orderResponseSchema,
  orderTimelineResponseSchema,
  saveOrderSchema,
  type SaveOrderRequest,
  updateOrderSchema,
} from '@offzero/shared/api/orders';
import { assertOwnId, requireSignedIn, signedInUser } from '../auth/sessions';
import { requireStepUp } from '../passkeys/step-up';
import { lightningDestinationKind } from '@offzero/shared/bitcoin/payout-destination';
import { toOrderResponse } from './order.presenter';
import type { OrderService } from './order.service';
import { errorResponses } from '../http/error-responses';

/**
 * `POST /api/order/save`, `POST /api/order/update`, `POST /api/order/cancel`, `GET /api/order/list`,
 * `GET /api/order/:id/timeline` (docs/design.md). Each
 * answer goes through its response schema, so a field the schema does not name is never sent.
 */
/** A buy's Lightning destination typed on the order (not an address-book entry), or null. */
function typedLightningDestination(body: SaveOrderRequest): { walletAddress: string } | null {
  const walletAddress = body.walletAddress?.trim() ?? '';
  if (body.type !== 'buy' || body.payoutAddressId !== undefined) return null;
  return lightningDestinationKind(walletAddress) === null ? null : { walletAddress };
}

export const orderRoutes =
  (ordersService: OrderService): FastifyPluginAsyncZod =>
  async (app) => {
    const signedIn = { preHandler: requireSignedIn(app) };

    app.post(
      '/api/order/save',
      {
        // A buy paid out to a Lightning destination typed for it (outside the address book) is, with a
        // passkey, confirmed for exactly that destination (docs/design.md, "Passkeys").
        preHandler: [
          signedIn.preHandler,
          requireStepUp(app, 'buy.lightning-destination', (request) =>
            typedLightningDestination(request.body as SaveOrderRequest),
          ),
        ],
        config: { blockedPlaces: true, idempotent: true },
        schema: {
          body: saveOrderSchema,
          response: {
            200: orderResponseSchema,
            ...errorResponses(400, 401, 403, 413, 415, 500, 503),
          },
        },
      },
      async (request) => {
        const { user } = assertOwnId(request, request.body.userId);
        const order = await ordersService.save(user, request.body);
        return {
          message: `Order #${order.id.slice(0, 8)} has been created.`,
          order: toOrderResponse(order, await ordersService.payoutHold(order)),
        };
      },
    );

    app.post(
      '/api/order/update',
      {
        ...signedIn,
        config: { blockedPlaces: true, idempotent: true },
        schema: {
          body: updateOrderSchema,
          response: {
            200: orderResponseSchema,
            ...errorResponses(400, 401, 403, 404, 409, 410, 413, 415, 500, 503),
          },
        },
      },
      async (request) => {
        const { user } = signedInUser(request);
        if ('userId' in request.body) assertOwnId(request, request.body.userId);
        const { order, message } = await ordersService.update(user, request.body);
        return { message, order: toOrderResponse(order) };
      },
    );

    app.post(
      '/api/order/cancel',
      {
        ...signedIn,
        config: { idempotent: true },
        schema: {
          body: cancelOrderSchema,
          response: {
            200: orderResponseSchema,
            ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500, 503),
          },
        },
      },
      async (request) => {
        const { user } = signedInUser(request);
        const order = await ordersService.cancel(user, request.body);
        return {
          message: `Order #${order.id.slice(0, 8)} has been cancelled.`,
          order: toOrderResponse(order),
        };
      },
    );

    app.get(
      '/api/order/:id/timeline',
      {
        ...signedIn,
        schema: {
          params: orderIdParamsSchema,
          response: { 200: orderTimelineResponseSchema, 401: error, 404: error, 500: error },
        },
      },
      async (request) => {
        const { user } = signedInUser(request);
        return ordersService.timeline(user, request.params.id);
      },
    );

    app.get(
      '/api/order/list',
      {
        ...signedIn,
        schema: {
          querystring: orderListQuerySchema,
          response: { 200: orderListResponseSchema, 400: error, 401: error, 403: error, 500: error },
        },
      },
      async (request) => {
        const { user } = assertOwnId(request, request.query.userId);
        const { orders, holds, lightningPayouts } = await ordersService.list(user, request.query.limit);
        return {
          result: {
            orders: orders.map((order) =>
              toOrderResponse(order, holds.get(order.id), lightningPayouts.get(order.id)),
            ),
          },
        };
      },
    );
  };
