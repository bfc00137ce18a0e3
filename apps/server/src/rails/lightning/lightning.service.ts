import { and, eq, gt, isNotNull, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { orders, type OrderRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import type { OrderNotifier } from '../../orders/order-notifications';
import { LightningWebhookError, type LightningNode } from './lightning-node';
import { creditLightningPayment } from './use-cases/credit-lightning-payment';

/** How long after an invoice expired the reconcile job still asks the node about it. */
const RECONCILE_AFTER_EXPIRY_MS = 60 * 60_000;

export interface LightningServiceDeps {
  db: Database;
  node: LightningNode;
  notify: OrderNotifier;
  confirmationsRequired: number;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/**
 * The Lightning rail's incoming side (docs/design.md, "Lightning"): the node's signed webhook, and the
 * reconcile job that asks the node about every open sell invoice, so a lost webhook or a process
 * killed mid-credit still credits the order, once.
 */
export function createLightningService(deps: LightningServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const creditDeps = { db: deps.db, confirmationsRequired: deps.confirmationsRequired, now };

  /** Asks the node whether the invoice is paid (never trusting a notification alone) and credits it. */
  async function settleIfPaid(paymentHash: string): Promise<OrderRow | null> {
    const incoming = await deps.node.incomingPayment(paymentHash);
    if (!incoming?.isPaid) return null;
    const credited = await creditLightningPayment(creditDeps, paymentHash, BigInt(incoming.receivedSats));
    if (credited) await deps.notify(credited);
    return credited;
  }

  return {
    settleIfPaid,

    async receiveWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>) {
      let event;
      try {
        event = deps.node.verifyWebhook(rawBody.toString('utf8'), headers);
      } catch (error) {
        if (error instanceof LightningWebhookError) throw new AppError('UNAUTHENTICATED', error.message);
        throw error;
      }
      return settleIfPaid(event.paymentHash);
    },

    /** Every open sell invoice, asked of the node; answers how many were credited. */
    async reconcile(): Promise<number> {
      const open = await deps.db
        .select({ paymentHash: orders.lightningPaymentHash })
        .from(orders)
        .where(
          and(
            isNotNull(orders.lightningPaymentHash),
            isNull(orders.lightningPaidAt),
            gt(orders.lightningExpiresAt, new Date(now().getTime() - RECONCILE_AFTER_EXPIRY_MS)),
          ),
        );
      let credited = 0;
      for (const { paymentHash } of open) {
        if (!paymentHash) continue;
        try {
          if (await settleIfPaid(paymentHash)) credited++;
        } catch (error) {
          deps.log.warn({ err: error, paymentHash }, 'lightning reconcile: the node did not answer');
        }
      }
      return credited;
    },

    /** The order of a sell invoice, for the demo's pay helper. */
    async findOrderByPaymentHash(paymentHash: string): Promise<OrderRow | undefined> {
      const [row] = await deps.db.select().from(orders).where(eq(orders.lightningPaymentHash, paymentHash));
      return row;
    },
  };
}

export type LightningService = ReturnType<typeof createLightningService>;
