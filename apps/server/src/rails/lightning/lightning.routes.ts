import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messageResponseSchema } from '@offzero/shared/api/accounts';
import { orderResponseSchema } from '@offzero/shared/api/orders';
import { requireAdmin, requireSignedIn, signedInUser } from '../../auth/sessions';
import { toOrderResponse } from '../../orders/order.presenter';
import { errorResponses } from '../../http/error-responses';
import { AppError } from '../../http/errors';
import { LIGHTNING_WEBHOOK_PATH } from './index';
import type { LightningNode } from './lightning-node';
import type { LightningService } from './lightning.service';

const payBody = z.strictObject({ invoice: z.string().trim().min(1).max(2000) });
const payoutParams = z.object({ orderId: z.string().max(100) });
const retryBody = z.strictObject({});
const onchainBody = z.strictObject({
  payoutAddressId: z.string({ error: 'Choose an address from your address book.' }).max(100),
});

const invoiceBody = z.strictObject({
  amountSats: z.number().int().positive().max(2_100_000_000_000_000).optional(),
});

/**
 * A failed Lightning payout tried again or sent on chain (docs/design.md, "Lightning"): by the customer
 * from their own order (another's answers 404), and by staff from the back office (audited).
 */
const failedPayoutRoutes =
  (service: LightningService): FastifyPluginAsyncZod =>
  async (app) => {
    const schema = {
      params: payoutParams,
      response: { 200: orderResponseSchema, ...errorResponses(400, 401, 403, 404, 409, 413, 415, 500, 503) },
    };
    const answer = (done: Awaited<ReturnType<LightningService['retryPayout']>>) => ({
      message: done.message,
      order: toOrderResponse(done.order, undefined, done.lightningPayout),
    });
    const customer = { preHandler: requireSignedIn(app), config: { idempotent: true } };
    app.post(
      '/api/lightning/payouts/:orderId/retry',
      { ...customer, schema: { ...schema, body: retryBody } },
      async (request) => {
        const { user } = signedInUser(request);
        return answer(
          await service.retryPayout(request.params.orderId, { kind: 'customer', userId: user.id }),
        );
      },
    );
    app.post(
      '/api/lightning/payouts/:orderId/onchain',
      { ...customer, schema: { ...schema, body: onchainBody } },
      async (request) => {
        const { user } = signedInUser(request);
        const who = { kind: 'customer', userId: user.id } as const;
        return answer(
          await service.convertToOnchain(request.params.orderId, request.body.payoutAddressId, who),
        );
      },
    );

    const staff = { onRequest: requireAdmin(app) };
    app.post(
      '/api/admin/lightning/payouts/:orderId/retry',
      { ...staff, schema: { ...schema, body: retryBody } },
      async (request) => {
        const staff = signedInUser(request);
        return answer(await service.retryPayout(request.params.orderId, { kind: 'staff', staff }));
      },
    );
    app.post(
      '/api/admin/lightning/payouts/:orderId/onchain',
      { ...staff, schema: { ...schema, body: onchainBody } },
      async (request) => {
        const who = { kind: 'staff', staff: signedInUser(request) } as const;
        return answer(
          await service.convertToOnchain(request.params.orderId, request.body.payoutAddressId, who),
        );
      },
    );
  };

/**
 * The operator node's payment webhook (docs/design.md, "Lightning"), and in demo mode the customer's
 * stand-in wallet: `POST /api/dev/lightning/pay` pays an invoice from it, and
 * `POST /api/dev/lightning/invoice` makes one for a buy's payout to pay.
 */
export const lightningRoutes =
  (service: LightningService, demoWallet: LightningNode | null): FastifyPluginAsyncZod =>
  async (app) => {
    // Signed by the node over the exact bytes, so it needs no CSRF token and keeps the raw body.
    await app.register(async (webhooks) => {
      webhooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
        done(null, body),
      );
      webhooks.post(
        LIGHTNING_WEBHOOK_PATH,
        {
          config: { csrf: false },
          schema: {
            response: { 200: messageResponseSchema, ...errorResponses(400, 401, 413, 415, 500, 503) },
          },
        },
        async (request) => {
          await service.receiveWebhook(request.body as Buffer, request.headers);
          return { message: 'Received.' };
        },
      );
    });

    await app.register(failedPayoutRoutes(service));

    if (!demoWallet) return;
    const errors = errorResponses(400, 413, 415, 500);

    app.post(
      '/api/dev/lightning/pay',
      {
        schema: {
          body: payBody,
          response: { 200: z.object({ paymentHash: z.string(), preimage: z.string() }), ...errors },
        },
      },
      async (request) => {
        const paid = await demoWallet.payInvoice({ invoice: request.body.invoice });
        if (paid.status !== 'settled') {
          throw new AppError(
            'BAD_REQUEST',
            paid.status === 'failed' ? paid.reason : 'The payment did not finish.',
          );
        }
        // The operator's node tells the server at once, as its webhook would.
        await service.settleIfPaid(paid.paymentHash);
        return { paymentHash: paid.paymentHash, preimage: paid.preimage };
      },
    );

    app.post(
      '/api/dev/lightning/invoice',
      {
        schema: {
          body: invoiceBody,
          response: { 200: z.object({ invoice: z.string(), paymentHash: z.string() }), ...errors },
        },
      },
      async (request) =>
        demoWallet.createInvoice({
          amountSats: request.body.amountSats ?? 0,
          description: 'Demo wallet',
          expirySeconds: 3600,
          externalId: 'demo-wallet',
        }),
    );
  };
