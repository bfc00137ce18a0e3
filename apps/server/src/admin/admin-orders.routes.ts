import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  lte,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  orderStatuses,
  paymentMethods,
  deposits,
  orderEvents,
  orders,
  users,
  type OrderRow,
} from '../db/schema';
import { requireAdmin, signedInUser, isUuid } from '../auth/sessions';
import { AppError } from '../http/errors';
import { moveOrder } from '../orders/order-state';
import type { OrderNotifier } from '../orders/order-notifications';
import { toOrderResponse } from '../orders/order.presenter';
import type { SimulatedChain } from '../chain/simulated-chain';
import { recordAdminAction } from './admin-audit';

const TXID = /^[0-9a-f]{64}$/i;
const reasonSchema = z.string().trim().min(3, { error: 'Give a reason of at least 3 characters.' }).max(500);

export const adminOrderFiltersSchema = z.strictObject({
  status: z.enum(orderStatuses).optional(),
  type: z.enum(['buy', 'sell']).optional(),
  method: z.enum(paymentMethods).optional(),
  customer: z.string().trim().max(254).optional(),
  flagged: z.enum(['true', 'false']).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});
type AdminOrderFilters = z.infer<typeof adminOrderFiltersSchema>;

function filtersToWhere(filters: AdminOrderFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(orders.status, filters.status));
  if (filters.type) conditions.push(eq(orders.type, filters.type));
  if (filters.method) conditions.push(eq(orders.paymentMethod, filters.method));
  if (filters.flagged === 'true') conditions.push(isNotNull(orders.flag));
  if (filters.from) conditions.push(gte(orders.createdAt, new Date(`${filters.from}T00:00:00Z`)));
  if (filters.to) conditions.push(lte(orders.createdAt, new Date(`${filters.to}T23:59:59.999Z`)));
  if (filters.customer) {
    const term = filters.customer;
    const byText = or(
      ilike(users.email, `%${term.replace(/[%_\\]/g, '\\$&')}%`),
      eq(users.phoneNumber, term),
    );
    conditions.push(isUuid(term) ? or(eq(users.id, term), eq(orders.id, term), byText)! : byText!);
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** An order row for the console: the client shape plus what only staff see. */
function forAdmin(order: OrderRow, email: string | null) {
  return {
    ...toOrderResponse(order),
    customerEmail: email,
    flagNote: order.flagNote,
    cancelReason: order.cancelReason,
    receivedSats: order.receivedSats?.toString() ?? null,
    depositIndex: order.depositIndex,
    paymentConfirmedAt: order.paymentConfirmedAt?.toISOString() ?? null,
    paymentConfirmedBy: order.paymentConfirmedBy,
    paypalOrderId: order.paypalOrderId,
    completedAt: order.completedAt?.toISOString() ?? null,
    /** When the order last changed: how long it has waited in a queue. */
    updatedAt: order.updatedAt.toISOString(),
  };
}

const CSV_COLUMNS = [
  'id',
  'created_at',
  'customer_email',
  'type',
  'status',
  'amount_btc',
  'price_usd',
  'value_usd',
  'platform_fee_usd',
  'network_fee_usd',
  'bank_fee_usd',
  'payment_method',
  'txn',
  'bank_txn',
  'flag',
] as const;

function csvCell(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  // Quote everything and neutralise spreadsheet formulas (a leading = + - @).
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The back office's order desk: search, detail with timeline, and the actions that move orders. */
export const adminOrderRoutes =
  (deps: {
    notify: OrderNotifier;
    simulatedChain: SimulatedChain | null;
    confirmationsRequired: number;
  }): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = app.database;
    const admin = { onRequest: requireAdmin(app) };
    const idParams = z.object({ id: z.string().max(100) });

    async function findOrder(id: string): Promise<OrderRow> {
      const [order] = isUuid(id) ? await db.select().from(orders).where(eq(orders.id, id)) : [];
      if (!order) throw new AppError('NOT_FOUND', 'Order not found.');
      return order;
    }

    async function search(filters: AdminOrderFilters) {
      const where = filtersToWhere(filters);
      const rows = await db
        .select({ order: orders, email: users.email })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .where(where)
        .orderBy(desc(orders.createdAt))
        .limit(filters.limit)
        .offset(filters.offset);
      const [total] = await db
        .select({ n: count() })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .where(where);
      return { rows, total: total?.n ?? 0 };
    }

    app.get(
      '/api/admin/orders',
      { ...admin, schema: { querystring: adminOrderFiltersSchema } },
      async (request) => {
        const { rows, total } = await search(request.query);
        return { orders: rows.map((row) => forAdmin(row.order, row.email)), total };
      },
    );

    app.get(
      '/api/admin/orders/export.csv',
      {
        ...admin,
        schema: {
          querystring: adminOrderFiltersSchema.extend({
            limit: z.coerce.number().int().min(1).max(10_000).default(10_000),
          }),
        },
      },
      async (request, reply) => {
        const { rows } = await search(request.query);
        const lines = [CSV_COLUMNS.join(',')];
        for (const { order, email } of rows) {
          const o = toOrderResponse(order);
          lines.push(
            [
              o._id,
              o.createdAt,
              email,
              o.type,
              o.status,
              o.amount,
              o.price,
              o.value,
              o.platformFee,
              o.networkFee,
              o.bankFee,
              o.payment?.method ?? null,
              o.txn,
              o.bankTxn,
              order.flag,
            ]
              .map(csvCell)
              .join(','),
          );
        }
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="offzero-orders-${new Date().toISOString().slice(0, 10)}.csv"`,
          )
          .send(`${lines.join('\r\n')}\r\n`);
      },
    );

    app.get('/api/admin/orders/:id', { ...admin, schema: { params: idParams } }, async (request) => {
      const order = await findOrder(request.params.id);
      const [customer] = await db
        .select({
          _id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
          phoneNumber: users.phoneNumber,
        })
        .from(users)
        .where(eq(users.id, order.userId));
      const timeline = await db
        .select()
        .from(orderEvents)
        .where(eq(orderEvents.orderId, order.id))
        .orderBy(asc(orderEvents.createdAt));
      const chain = await db
        .select()
        .from(deposits)
        .where(eq(deposits.orderId, order.id))
        .orderBy(asc(deposits.firstSeenAt));
      return {
        order: forAdmin(order, customer?.email ?? null),
        customer: customer ?? null,
        timeline: timeline.map((event) => ({
          from: event.fromStatus,
          to: event.toStatus,
          actor: event.actor,
          reason: event.reason,
          details: event.details,
          at: event.createdAt.toISOString(),
        })),
        deposits: chain.map((d) => ({
          txid: d.txid,
          vout: d.vout,
          amount: Number(d.valueSats) / 1e8,
          confirmations: d.confirmations,
          status: d.status,
          firstSeenAt: d.firstSeenAt.toISOString(),
        })),
        confirmationsRequired: deps.confirmationsRequired,
      };
    });

    /** Runs one admin action on an order in a transaction with its audit entry, then notifies. */
    async function act(
      request: Parameters<typeof signedInUser>[0],
      orderId: string,
      action: string,
      change: (
        tx: Parameters<Parameters<typeof db.transaction>[0]>[0],
        before: OrderRow,
      ) => Promise<OrderRow>,
      note: string | null,
    ) {
      const staff = signedInUser(request);
      const before = await findOrder(orderId);
      const after = await db.transaction(async (tx) => {
        const updated = await change(tx, before);
        await recordAdminAction(tx, staff, {
          action,
          targetType: 'order',
          targetId: before.id,
          before,
          after: updated,
          note,
        });
        return updated;
      });
      if (after.status !== before.status) await deps.notify(after);
      return { message: 'Done.', order: forAdmin(after, null) };
    }

    app.post(
      '/api/admin/orders/:id/mark-paid',
      {
        ...admin,
        schema: { params: idParams, body: z.strictObject({ note: z.string().trim().max(500).optional() }) },
      },
      async (request) =>
        act(
          request,
          request.params.id,
          'order.mark_paid',
          async (tx, order) => {
            if (order.type !== 'buy' || order.status !== 'processing') {
              throw new AppError(
                'CONFLICT',
                `Only a processing buy can be marked paid; this order is a ${order.status} ${order.type}.`,
              );
            }
            if (order.paymentConfirmedAt)
              throw new AppError('CONFLICT', 'This payment is already marked as received.');
            const [updated] = await tx
              .update(orders)
              .set({
                paymentConfirmedAt: new Date(),
                paymentConfirmedBy: signedInUser(request).user.email,
                updatedAt: new Date(),
              })
              .where(
                and(
                  eq(orders.id, order.id),
                  eq(orders.status, 'processing'),
                  sql`${orders.paymentConfirmedAt} is null`,
                ),
              )
              .returning();
            if (!updated) throw new AppError('CONFLICT', 'This order changed meanwhile. Reload it.');
            return updated;
          },
          request.body.note ?? null,
        ),
    );

    async function completeBuy(
      request: Parameters<typeof signedInUser>[0],
      orderId: string,
      txid: string,
      note: string | null,
    ) {
      return act(
        request,
        orderId,
        'order.payout_btc',
        async (tx, order) => {
          if (order.type !== 'buy')
            throw new AppError('CONFLICT', 'A bitcoin payout completes buy orders only.');
          if (order.status === 'processing' && !order.paymentConfirmedAt) {
            throw new AppError('CONFLICT', 'Mark the payment as received before sending the bitcoin.');
          }
          return moveOrder(tx, {
            orderId: order.id,
            from: ['processing'],
            to: 'completed',
            actor: `admin:${signedInUser(request).user.id}`,
            reason: 'bitcoin sent to the customer',
            patch: { txn: txid.toLowerCase() },
            details: { txid: txid.toLowerCase() },
          });
        },
        note,
      );
    }

    app.post(
      '/api/admin/orders/:id/payout-btc',
      {
        ...admin,
        schema: {
          params: idParams,
          body: z.strictObject({
            txid: z
              .string()
              .trim()
              .regex(TXID, { error: 'Enter the 64-character hexadecimal transaction id.' }),
            note: z.string().trim().max(500).optional(),
          }),
        },
      },
      async (request) =>
        completeBuy(request, request.params.id, request.body.txid, request.body.note ?? null),
    );

    if (deps.simulatedChain) {
      const chain = deps.simulatedChain;
      // Demo: send the bitcoin through the simulated chain, then record that transaction.
      app.post(
        '/api/admin/orders/:id/send-btc',
        { ...admin, schema: { params: idParams } },
        async (request) => {
          const order = await findOrder(request.params.id);
          if (
            order.type !== 'buy' ||
            order.status !== 'processing' ||
            !order.paymentConfirmedAt ||
            !order.walletAddress
          ) {
            throw new AppError(
              'CONFLICT',
              'Only a processing buy whose payment was marked received can be paid out.',
            );
          }
          const { txid } = await chain.send(order.walletAddress, order.amountSats);
          return completeBuy(request, order.id, txid, 'sent through the demo chain');
        },
      );
    }

    app.post(
      '/api/admin/orders/:id/payout-usd',
      {
        ...admin,
        schema: {
          params: idParams,
          body: z.strictObject({
            reference: z
              .string()
              .trim()
              .min(4, { error: 'Enter the payout reference (at least 4 characters).' })
              .max(100)
              .regex(/^[\p{L}\p{N} ._:/#-]+$/u, {
                error: 'Use letters, digits, spaces and . _ : / # - only.',
              }),
            note: z.string().trim().max(500).optional(),
          }),
        },
      },
      async (request) =>
        act(
          request,
          request.params.id,
          'order.payout_usd',
          async (tx, order) => {
            if (order.type !== 'sell')
              throw new AppError('CONFLICT', 'A dollar payout completes sell orders only.');
            if (order.status === 'processing' && order.confirmations < deps.confirmationsRequired) {
              throw new AppError(
                'CONFLICT',
                `Wait for ${deps.confirmationsRequired} confirmations before paying out (now ${order.confirmations}).`,
              );
            }
            return moveOrder(tx, {
              orderId: order.id,
              from: ['processing'],
              to: 'completed',
              actor: `admin:${signedInUser(request).user.id}`,
              reason: 'dollars paid to the customer',
              patch: { bankTxn: request.body.reference },
              details: { reference: request.body.reference },
            });
          },
          request.body.note ?? null,
        ),
    );

    app.post(
      '/api/admin/orders/:id/cancel',
      { ...admin, schema: { params: idParams, body: z.strictObject({ reason: reasonSchema }) } },
      async (request) =>
        act(
          request,
          request.params.id,
          'order.cancel',
          async (tx, order) =>
            moveOrder(tx, {
              orderId: order.id,
              from: ['pending', 'processing', 'expired'],
              to: 'cancelled',
              actor: `admin:${signedInUser(request).user.id}`,
              reason: request.body.reason,
              patch: { cancelReason: request.body.reason },
            }),
          request.body.reason,
        ),
    );

    app.post(
      '/api/admin/orders/:id/resolve-flag',
      { ...admin, schema: { params: idParams, body: z.strictObject({ note: reasonSchema }) } },
      async (request) =>
        act(
          request,
          request.params.id,
          'order.resolve_flag',
          async (tx, order) => {
            if (!order.flag) throw new AppError('CONFLICT', 'This order has no flag to resolve.');
            const [updated] = await tx
              .update(orders)
              .set({
                flag: null,
                flagNote: `resolved: ${request.body.note} (was ${order.flag}: ${order.flagNote ?? ''})`,
                updatedAt: new Date(),
              })
              .where(eq(orders.id, order.id))
              .returning();
            return updated ?? order;
          },
          request.body.note,
        ),
    );

    // The work queue: what needs a person now, oldest first.
    app.get('/api/admin/queue', admin, async () => {
      const withEmail = (where: SQL | undefined) =>
        db
          .select({ order: orders, email: users.email })
          .from(orders)
          .innerJoin(users, eq(users.id, orders.userId))
          .where(where)
          .orderBy(asc(orders.updatedAt))
          .limit(100);
      const [paymentsToCheck, paymentsToSend, payoutsDue, flagged] = await Promise.all([
        withEmail(
          and(
            eq(orders.type, 'buy'),
            eq(orders.status, 'processing'),
            sql`${orders.paymentConfirmedAt} is null`,
          ),
        ),
        withEmail(
          and(eq(orders.type, 'buy'), eq(orders.status, 'processing'), isNotNull(orders.paymentConfirmedAt)),
        ),
        withEmail(
          and(
            eq(orders.type, 'sell'),
            eq(orders.status, 'processing'),
            gte(orders.confirmations, deps.confirmationsRequired),
          ),
        ),
        withEmail(
          and(
            isNotNull(orders.flag),
            inArray(orders.status, ['pending', 'processing', 'expired', 'completed', 'cancelled']),
          ),
        ),
      ]);
      const present = (rows: { order: OrderRow; email: string }[]) =>
        rows.map((row) => forAdmin(row.order, row.email));
      return {
        paymentsToCheck: present(paymentsToCheck),
        bitcoinToSend: present(paymentsToSend),
        sellPayoutsDue: present(payoutsDue),
        flagged: present(flagged),
      };
    });
  };
