import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { base64 } from '@scure/base';
import {
  dueBuyListSchema,
  feeTierSchema,
  payoutBatchAnswerSchema,
  payoutBatchListSchema,
  signedPsbtBodySchema,
} from '@offzero/shared/api/payout-batches';
import { formatBtc } from '@offzero/shared/money/money';
import { requireAdmin, signedInUser } from '../../auth/sessions';
import { errorResponses } from '../../http/error-responses';
import type { PayoutBatchService } from './payout-batches.service';
import { toPayoutBatch } from './payout-batches.presenter';

const idParams = z.object({ id: z.string().max(100) });
const feeTierBody = z.strictObject({
  feeTier: feeTierSchema.describe('How soon the batch should confirm: economy, standard or priority.'),
});
const readErrors = errorResponses(400, 401, 403, 404, 500);
const actionErrors = errorResponses(400, 401, 403, 404, 409, 413, 415, 500, 503);

type BatchRouteApp = Parameters<FastifyPluginAsyncZod>[0];

/** What both groups of batch routes share: staff only, and a batch answered with its PSBT. */
function batchRouteContext(app: BatchRouteApp) {
  const explorer = app.config.explorerUrl;
  return {
    staffOnly: { onRequest: requireAdmin(app) },
    explorer,
    answer: (view: Parameters<typeof toPayoutBatch>[0]) => ({
      batch: toPayoutBatch(view, explorer),
      psbt: view.batch.unsignedPsbt,
    }),
  };
}

/**
 * The back office's payout batches (docs/design.md): the buys due, the batches, building one, the PSBT
 * as a file, the signed upload that broadcasts it, the fee bump and abandoning an unsigned batch.
 */
export const payoutBatchRoutes =
  (batches: PayoutBatchService): FastifyPluginAsyncZod =>
  async (app) => {
    batchReadRoutes(app, batches);
    batchActionRoutes(app, batches);
  };

/** The buys due, the batches, building one, a batch and its PSBT as a file. */
function batchReadRoutes(app: BatchRouteApp, batches: PayoutBatchService) {
  const { staffOnly, explorer, answer } = batchRouteContext(app);
  app.get(
    '/api/admin/payouts/due',
    { ...staffOnly, schema: { response: { 200: dueBuyListSchema, ...readErrors } } },
    async () => ({
      dueBuys: (await batches.listDueBuys()).map((due) => ({
        orderId: due.order.id,
        address: due.address,
        amount: formatBtc(due.order.amountSats, 8),
        usable: due.usable,
        reason: due.reason,
        paidAt: due.order.paymentConfirmedAt?.toISOString() ?? null,
      })),
      walletConfigured: batches.walletConfigured,
      feeCapPercent: batches.feeCapPercent,
    }),
  );

  app.get(
    '/api/admin/payouts/batches',
    {
      ...staffOnly,
      schema: {
        querystring: z.strictObject({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
        response: { 200: payoutBatchListSchema, ...readErrors },
      },
    },
    async (request) => ({
      batches: (await batches.list(request.query.limit)).map((view) => toPayoutBatch(view, explorer)),
    }),
  );

  app.post(
    '/api/admin/payouts/batches',
    {
      ...staffOnly,
      config: { idempotent: true },
      schema: { body: feeTierBody, response: { 200: payoutBatchAnswerSchema, ...actionErrors } },
    },
    async (request) => {
      const { batch, skipped } = await batches.build({
        staff: signedInUser(request),
        feeTier: request.body.feeTier,
      });
      return { ...answer({ ...batch, confirmations: null, replacedByBatchId: null }), skipped };
    },
  );

  app.get(
    '/api/admin/payouts/batches/:id',
    {
      ...staffOnly,
      schema: { params: idParams, response: { 200: payoutBatchAnswerSchema, ...readErrors } },
    },
    async (request) => answer(await batches.get(request.params.id)),
  );

  // The unsigned PSBT as a file (BIP 174 binary), for wallets that open .psbt files.
  app.get(
    '/api/admin/payouts/batches/:id/psbt',
    {
      ...staffOnly,
      schema: {
        params: idParams,
        response: {
          200: {
            description: 'The unsigned PSBT of the batch (binary, BIP 174).',
            content: { 'application/octet-stream': { schema: z.any() } },
          },
          ...readErrors,
        },
      },
    },
    async (request, reply) => {
      const view = await batches.get(request.params.id);
      return reply
        .header('content-type', 'application/octet-stream')
        .header(
          'content-disposition',
          `attachment; filename="offzero-batch-${view.batch.id.slice(0, 8)}.psbt"`,
        )
        .send(Buffer.from(base64.decode(view.batch.unsignedPsbt)));
    },
  );
}

/** The signed upload that broadcasts a batch, the fee bump, abandoning, and the demo wallet's signature. */
function batchActionRoutes(app: BatchRouteApp, batches: PayoutBatchService) {
  const { staffOnly, answer } = batchRouteContext(app);
  app.post(
    '/api/admin/payouts/batches/:id/signed',
    {
      ...staffOnly,
      config: { idempotent: true, multilineFields: ['psbt'] },
      schema: {
        params: idParams,
        body: signedPsbtBodySchema,
        response: { 200: payoutBatchAnswerSchema, ...actionErrors },
      },
    },
    async (request) => {
      await batches.submitSigned({
        staff: signedInUser(request),
        batchId: request.params.id,
        psbt: request.body.psbt,
      });
      return answer(await batches.get(request.params.id));
    },
  );

  app.post(
    '/api/admin/payouts/batches/:id/bump-fee',
    {
      ...staffOnly,
      config: { idempotent: true },
      schema: {
        params: idParams,
        body: feeTierBody,
        response: { 200: payoutBatchAnswerSchema, ...actionErrors },
      },
    },
    async (request) => {
      const bumped = await batches.bumpFee({
        staff: signedInUser(request),
        batchId: request.params.id,
        feeTier: request.body.feeTier,
      });
      return answer(await batches.get(bumped.batch.id));
    },
  );

  app.post(
    '/api/admin/payouts/batches/:id/abandon',
    {
      ...staffOnly,
      config: { idempotent: true },
      schema: {
        params: idParams,
        body: z.strictObject({}).nullish(),
        response: { 200: payoutBatchAnswerSchema, ...actionErrors },
      },
    },
    async (request) => {
      await batches.abandon({ staff: signedInUser(request), batchId: request.params.id });
      return answer(await batches.get(request.params.id));
    },
  );

  const { signWithDemoWallet } = batches;
  if (signWithDemoWallet && app.config.isDemo) {
    // Demo: the demo payout wallet signs, standing in for the operator's hardware wallet.
    app.post(
      '/api/dev/payouts/batches/:id/sign',
      {
        ...staffOnly,
        schema: {
          params: idParams,
          body: z.strictObject({}).nullish(),
          response: { 200: z.object({ psbt: z.string() }), ...actionErrors },
        },
      },
      async (request) => ({ psbt: await signWithDemoWallet(request.params.id) }),
    );
  }
}
