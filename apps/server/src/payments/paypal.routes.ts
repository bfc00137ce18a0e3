import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSignedIn, signedInUser } from '../auth/sessions';
import { AppError } from '../http/errors';
import { toOrderResponse } from '../orders/order.presenter';
import type { DemoPayPalGateway } from './demo-paypal-gateway';
import { PayPalError } from './paypal-gateway';
import type { PayPalService } from './paypal.service';

const orderIdBody = z.strictObject({ orderId: z.string().max(100) });
const paypalOrderIdParam = z.object({
  paypalOrderId: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9-]+$/),
});

/** PayPal create and capture (DESIGN.md section 2), plus the demo sandbox's approve / cancel buttons. */
export const paypalRoutes =
  (paypal: PayPalService, demoGateway: DemoPayPalGateway | null): FastifyPluginAsyncZod =>
  async (app) => {
    const signedIn = { preHandler: requireSignedIn(app) };

    app.post(
      '/api/payments/paypal/orders',
      { ...signedIn, schema: { body: orderIdBody } },
      async (request) => {
        return paypal.createPayment(signedInUser(request).user, request.body.orderId);
      },
    );

    app.post(
      '/api/payments/paypal/orders/:paypalOrderId/capture',
      { ...signedIn, schema: { body: orderIdBody, params: paypalOrderIdParam } },
      async (request) => {
        const order = await paypal.capturePayment(
          signedInUser(request).user,
          request.params.paypalOrderId,
          request.body.orderId,
        );
        return { message: 'Payment received. Your bitcoin is on its way.', order: toOrderResponse(order) };
      },
    );

    if (demoGateway) {
      // The demo sandbox's stand-in for the buyer approving in PayPal's window.
      for (const action of ['approve', 'cancel'] as const) {
        app.post(
          `/api/dev/paypal/orders/:paypalOrderId/${action}`,
          { ...signedIn, schema: { params: paypalOrderIdParam } },
          async (request) => {
            try {
              demoGateway[action](request.params.paypalOrderId);
            } catch (error) {
              if (error instanceof PayPalError) throw new AppError('CONFLICT', error.message);
              throw error;
            }
            return {
              message: action === 'approve' ? 'Payment approved in the demo sandbox.' : 'Payment cancelled.',
            };
          },
        );
      }
    }
  };
