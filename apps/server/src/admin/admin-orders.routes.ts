import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  fourEyesPendingSchema,
  orderActionAnswerSchema,
  orderDetailSchema,
  orderListSchema,
  queueSchema,
} from '@offzero/shared/api/admin';
import { orderStatusSchema, paymentMethodSchema } from '@offzero/shared/api/orders';
import { bitcoinAddressField } from '@offzero/shared/bitcoin/address-field';
import { requireAdmin, signedInUser } from '../auth/sessions';
import type { AdminService } from './admin.service';
import {
  adminActionErrorResponses,
  adminErrorResponses,
  adminLookupErrorResponses,
} from './admin-error-responses';
import { toAdminOrder, toAdminOrders, toDepositEntry } from './admin.presenter';
import { toTimelineEntry } from './admin-timeline.presenter';

const TXID = /^[0-9a-f]{64}$/i;
const reasonSchema = z.string().trim().min(3, { error: 'Give a reason of at least 3 characters.' }).max(500);
const noteSchema = z.string().trim().max(500).optional();
/** The bank or Zelle reference of dollars staff sent (a sell's payout, a buy's refund). */
const usdReferenceSchema = z
  .string()
  .trim()
  .min(4, { error: 'Enter the payout reference (at least 4 characters).' })
  .max(100)
  .regex(/^[\p{L}\p{N} ._:/#-]+$/u, { error: 'Use letters, digits, spaces and . _ : / # - only.' });
const idParams = z.object({ id: z.string().max(100) });

const adminOrderFiltersSchema = z.strictObject({
  status: orderStatusSchema.optional(),
  type: z.enum(['buy', 'sell']).optional(),
  method: paymentMethodSchema.optional(),
  customer: z.string().trim().max(254).optional(),
  flagged: z.enum(['true', 'false']).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
  cursor: z.uuid({ error: "Use the previous page's nextCursor as cursor." }).optional(),
});

const actionAnswer = {
  200: orderActionAnswerSchema,
  ...adminActionErrorResponses,
};
const done = (order: Parameters<typeof toAdminOrder>[0]) => ({
  message: 'Done.',
  order: toAdminOrder(order, null),
});

/** The back office's order desk: search, detail with timeline, and the actions that move orders. */
export const adminOrderRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app, options) => {
    await orderSearchRoutes(admin)(app, options);
    await paymentActionRoutes(admin)(app, options);
    await closingActionRoutes(admin)(app, options);
    await refundRoutes(admin)(app, options);
    await workQueueRoutes(admin)(app, options);
  };

/** Search, the CSV export and one order's detail. */
const orderSearchRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app) => {
    const staffOnly = { onRequest: requireAdmin(app) };

    app.get(
      '/api/admin/orders',
      {
        ...staffOnly,
        schema: {
          querystring: adminOrderFiltersSchema,
          response: { 200: orderListSchema, ...adminErrorResponses },
        },
      },
      async (request) => {
        const { rows, total, nextCursor } = await admin.searchOrders(request.query);
        return { orders: toAdminOrders(rows), total, nextCursor };
      },
    );

    app.get(
      '/api/admin/orders/export.csv',
      {
        ...staffOnly,
        schema: {
          querystring: adminOrderFiltersSchema.extend({
            limit: z.coerce.number().int().min(1).max(10_000).default(10_000),
          }),
          response: {
            200: {
              description: 'The matching orders as a CSV file, one line per order.',
              content: { 'text/csv': { schema: z.string() } },
            },
            ...adminErrorResponses,
          },
        },
      },
      async (request, reply) => {
        const { filename, csv } = await admin.exportOrdersCsv(request.query);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${filename}"`)
          .send(csv);
      },
    );

    app.get(
      '/api/admin/orders/:id',
      {
        ...staffOnly,
        schema: { params: idParams, response: { 200: orderDetailSchema, ...adminLookupErrorResponses } },
      },
      async (request) => {
        const detail = await admin.getOrderDetail(request.params.id);
        return {
          order: toAdminOrder(detail.order, detail.customer?.email ?? null, detail.lightningPayout),
          actions: detail.actions,
          customer: detail.customer,
          timeline: detail.timeline.map(toTimelineEntry),
          deposits: detail.deposits.map(toDepositEntry),
          confirmationsRequired: detail.confirmationsRequired,
          payoutDestination: detail.payoutDestination,
          payoutBatch: detail.payoutBatch,
          payouts: detail.payouts,
        };
      },
    );
  };

/** The money moves: a buy's payment seen, its bitcoin sent (by hand or, in demo, by the chain), a sell paid out. */
const paymentActionRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app) => {
    const staffOnly = { onRequest: requireAdmin(app) };

    app.post(
      '/api/admin/orders/:id/mark-paid',
      {
        ...staffOnly,
        config: { multilineFields: ['note'], idempotent: true },
        schema: {
          params: idParams,
          body: z.strictObject({ note: noteSchema }),
          // 202: a large buy waits for a second admin (four eyes); nothing else changed.
          response: { ...actionAnswer, 202: fourEyesPendingSchema },
        },
      },
      async (request, reply) => {
        const result = await admin.markPaid({
          staff: signedInUser(request),
          orderId: request.params.id,
          note: request.body.note ?? null,
        });
        if ('pending' in result) return reply.code(202).send(result.pending);
        return done(result.done);
      },
    );

    app.post(
      '/api/admin/orders/:id/payout-btc',
      {
        ...staffOnly,
        config: { blockedPlaces: true, multilineFields: ['note'], idempotent: true },
        schema: {
          params: idParams,
          body: z.strictObject({
            txid: z
              .string()
              .trim()
              .regex(TXID, { error: 'Enter the 64-character hexadecimal transaction id.' }),
            /** The output of `txid` that pays this order (0 when left out). */
            vout: z.number().int().min(0).max(100_000).optional(),
            note: noteSchema,
          }),
          response: actionAnswer,
        },
      },
      async (request) =>
        done(
          await admin.recordBtcPayout({
            staff: signedInUser(request),
            orderId: request.params.id,
            txid: request.body.txid,
            vout: request.body.vout,
            note: request.body.note ?? null,
          }),
        ),
    );

    const { sendDemoBtc } = admin;
    if (sendDemoBtc) {
      // Demo: send the bitcoin through the simulated chain, then record that transaction.
      app.post(
        '/api/admin/orders/:id/send-btc',
        {
          ...staffOnly,
          config: { blockedPlaces: true, idempotent: true },
          schema: { params: idParams, response: actionAnswer },
        },
        async (request) =>
          done(await sendDemoBtc({ staff: signedInUser(request), orderId: request.params.id })),
      );
    }

    app.post(
      '/api/admin/orders/:id/payout-usd',
      {
        ...staffOnly,
        config: { blockedPlaces: true, multilineFields: ['note'], idempotent: true },
        schema: {
          params: idParams,
          body: z.strictObject({ reference: usdReferenceSchema, note: noteSchema }),
          // 202: a large sell waits for a second admin (four eyes); nothing else changed.
          response: { ...actionAnswer, 202: fourEyesPendingSchema },
        },
      },
      async (request, reply) => {
        const result = await admin.payoutUsd({
          staff: signedInUser(request),
          orderId: request.params.id,
          reference: request.body.reference,
          note: request.body.note ?? null,
        });
        if ('pending' in result) return reply.code(202).send(result.pending);
        return done(result.done);
      },
    );
  };

/** Ending or clearing an order: cancel, resolve a flag, send a sell's coins back. */
const closingActionRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app) => {
    const staffOnly = { onRequest: requireAdmin(app) };

    app.post(
      '/api/admin/orders/:id/cancel',
      {
        ...staffOnly,
        config: { multilineFields: ['reason'], idempotent: true },
        schema: { params: idParams, body: z.strictObject({ reason: reasonSchema }), response: actionAnswer },
      },
      async (request) =>
        done(
          await admin.cancelOrder({
            staff: signedInUser(request),
            orderId: request.params.id,
            reason: request.body.reason,
          }),
        ),
    );

    app.post(
      '/api/admin/orders/:id/resolve-flag',
      {
        ...staffOnly,
        config: { multilineFields: ['note'], idempotent: true },
        schema: { params: idParams, body: z.strictObject({ note: reasonSchema }), response: actionAnswer },
      },
      async (request) =>
        done(
          await admin.resolveFlag({
            staff: signedInUser(request),
            orderId: request.params.id,
            note: request.body.note,
          }),
        ),
    );

    // Coins of a sell we will not pay for, sent back to the customer: the order is cancelled if open.
    app.post(
      '/api/admin/orders/:id/refund-btc',
      {
        ...staffOnly,
        config: { multilineFields: ['note'], idempotent: true },
        schema: {
          params: idParams,
          body: z.strictObject({
            address: bitcoinAddressField(app.config.bitcoinNetwork).max(100),
            txid: z
              .string()
              .trim()
              .regex(TXID, { error: 'Enter the 64-character hexadecimal transaction id.' })
              .transform((txid) => txid.toLowerCase()),
            note: noteSchema,
          }),
          response: actionAnswer,
        },
      },
      async (request) =>
        done(
          await admin.refundBtc({
            staff: signedInUser(request),
            orderId: request.params.id,
            address: request.body.address,
            txid: request.body.txid,
            note: request.body.note ?? null,
          }),
        ),
    );
  };

/** Dollars staff sent back to a buyer: the refund a scam cancel claimed, settled with its reference. */
const refundRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/admin/orders/:id/refund-usd',
      {
        onRequest: requireAdmin(app),
        config: { multilineFields: ['note'], idempotent: true },
        schema: {
          params: idParams,
          body: z.strictObject({ reference: usdReferenceSchema, note: noteSchema }),
          response: actionAnswer,
        },
      },
      async (request) =>
        done(
          await admin.recordUsdRefund({
            staff: signedInUser(request),
            orderId: request.params.id,
            reference: request.body.reference,
            note: request.body.note ?? null,
          }),
        ),
    );
  };

/** The work queue: what needs a person now, oldest first. */
const workQueueRoutes =
  (admin: AdminService): FastifyPluginAsyncZod =>
  async (app) => {
    const staffOnly = { onRequest: requireAdmin(app) };

    app.get(
      '/api/admin/queue',
      {
        ...staffOnly,
        schema: { response: { 200: queueSchema, ...adminErrorResponses } },
      },
      async () => {
        const queue = await admin.getWorkQueue();
        return {
          paymentsToCheck: toAdminOrders(queue.paymentsToCheck),
          bitcoinToSend: queue.bitcoinToSend.map((row) => ({
            ...toAdminOrder(row.order, row.email),
            payoutBatch: row.batch,
          })),
          sellPayoutsDue: toAdminOrders(queue.sellPayoutsDue),
          flagged: toAdminOrders(queue.flagged),
          alerts: queue.alerts,
        };
      },
    );
  };
