import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '@offzero/shared/api/accounts';
import {
  orderResponseSchema,
  paypalOrderCreatedSchema,
  paypalOrderParamsSchema,
  paypalPaymentBodySchema,
} from '@offzero/shared/api/orders';
import { requireSignedIn, signedInUser } from '../../auth/sessions';
import { toOrderResponse } from '../../orders/order.presenter';
import { decideDemoPayment } from './decide-demo-payment';
import type { DemoPayPalGateway } from './demo-paypal-gateway';
import { PAYMENT_HELD_MESSAGE, type PayPalService } from './paypal.service';
import { errorResponses } from '../../http/error-responses';

/** What a PayPal create or capture can answer besides success. */
const paymentErrors = {
  ...errorResponses(400, 401, 403, 404, 409, 410, 413, 415, 500, 503),
} as const;

/** PayPal create and capture (docs/design.md), plus the demo sandbox's approve / cancel buttons. */
export const paypalRoutes =
  (paypal: PayPalService, demoGateway: DemoPayPalGateway | null): FastifyPluginAsyncZod =>
  async (app) => {
    const signedIn = { preHandler: requireSignedIn(app) };

    app.post(
      '/api/payments/paypal/orders',
      {
        ...signedIn,
        config: { idempotent: true },
        schema: {
          body: paypalPaymentBodySchema,
          response: { 200: paypalOrderCreatedSchema, ...paymentErrors },
        },
      },
      async (request) => {
        const { id } = await paypal.createPayment(signedInUser(request).user, request.body.orderId);
        return { id };
      },
    );

    app.post(
      '/api/payments/paypal/orders/:paypalOrderId/capture',
      {
        ...signedIn,
        config: { idempotent: true },
        schema: {
          body: paypalPaymentBodySchema,
          params: paypalOrderParamsSchema,
          response: { 200: orderResponseSchema, ...paymentErrors },
        },
      },
      async (request) => {
        const { order, held, payoutHold } = await paypal.capturePayment(
          signedInUser(request).user,
          request.params.paypalOrderId,
          request.body.orderId,
        );
        // Never "on its way" while the bitcoin waits for the customer (an address to confirm...).
        const message = held
          ? PAYMENT_HELD_MESSAGE
          : payoutHold
            ? `Payment received. ${payoutHold}`
            : 'Payment received. Your bitcoin is on its way.';
        return { message, order: toOrderResponse(order, payoutHold) };
      },
    );

    // PayPal's webhook (docs/design.md): it proves itself by PayPal's signature, so it needs no CSRF
    // token; the signature covers the exact bytes, so this route keeps the raw body.
    await app.register(async (webhooks) => {
      webhooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
        done(null, body),
      );
      webhooks.post(
        '/api/payments/paypal/webhook',
        {
          config: { csrf: false },
          schema: {
            response: { 200: messageResponseSchema, ...errorResponses(400, 401, 413, 415, 500, 503) },
          },
        },
        async (request) => {
          const outcome = await paypal.receiveWebhook(request.body as Buffer, request.headers);
          return { message: outcome === 'replay' ? 'Already processed.' : 'Received.' };
        },
      );
    });

    if (demoGateway) {
      for (const decision of ['approve', 'cancel'] as const) {
        app.post(
          `/api/dev/paypal/orders/:paypalOrderId/${decision}`,
          {
            ...signedIn,
            schema: {
              params: paypalOrderParamsSchema,
              response: {
                200: messageResponseSchema,
                ...errorResponses(400, 401, 403, 409, 413, 415, 500),
              },
            },
          },
          async (request) => decideDemoPayment(demoGateway, request.params.paypalOrderId, decision),
        );
      }
    }
  };
