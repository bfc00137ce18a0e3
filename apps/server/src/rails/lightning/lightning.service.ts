import { and, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { BitcoinNetwork } from '@offzero/shared/bitcoin/address';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/database';
import { orders, payouts, type OrderRow } from '../../db/schema';
import type { LnurlOptions } from './lightning-destination';
import { payOutByLightning } from './use-cases/pay-out-by-lightning';
import { resolveSubmittedPayouts } from './use-cases/resolve-submitted-payouts';
import { AppError } from '../../http/errors';
import { recordAdminAction } from '../../admin/admin-audit.repository';
import type { OrderNotifier } from '../../orders/order-notifications';
import { LightningWebhookError, type LightningNode } from './lightning-node';
import { creditLightningPayment } from './use-cases/credit-lightning-payment';
import {
  convertLightningPayoutToOnchain,
  retryLightningPayout,
  type FailedPayoutActor,
} from './use-cases/failed-payout-actions';
import { lightningPayoutOfOrder } from './lightning-payout.presenter';

/** How long after an invoice expired the reconcile job still asks the node about it. */
const RECONCILE_AFTER_EXPIRY_MS = 60 * 60_000;

export interface LightningServiceDeps {
  db: Database;
  node: LightningNode;
  notify: OrderNotifier;
  confirmationsRequired: number;
  network: BitcoinNetwork;
  log: FastifyBaseLogger;
  lnurl?: LnurlOptions;
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
    const credited = await creditLightningPayment(
      creditDeps,
      paymentHash,
      BigInt(incoming.receivedSats),
      incoming.preimage,
    );
    if (credited) await deps.notify(credited);
    return credited;
  }

  const payoutDeps = { db: deps.db, node: deps.node, network: deps.network, now, lnurl: deps.lnurl };

  /** Paid buys to a Lightning destination with no payout yet: each is paid out now. */
  async function payDueBuys(): Promise<number> {
    const due = await deps.db
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.type, 'buy'),
          eq(orders.status, 'processing'),
          // Paid, not only said to be paid: "I have paid" alone sends nothing (docs/design.md, "Lightning").
          isNotNull(orders.paymentConfirmedAt),
          isNull(orders.flag),
          or(isNull(orders.coolingUntil), lte(orders.coolingUntil, now())),
          or(sql`lower(${orders.walletAddress}) like 'ln%'`, sql`${orders.walletAddress} like '%@%'`),
          sql`not exists (select 1 from ${payouts} where ${payouts.orderId} = ${orders.id})`,
        ),
      );
    let paid = 0;
    for (const { id } of due) {
      try {
        await payOutByLightning(payoutDeps, id, 'system:lightning');
        paid++;
      } catch (error) {
        deps.log.warn({ err: error, orderId: id }, 'lightning payout not sent');
      }
    }
    return paid;
  }

  const resolveSubmitted = () => resolveSubmittedPayouts({ db: deps.db, node: deps.node, now });

  return {
    settleIfPaid,
    payDueBuys,
    resolveSubmitted,
    /** Pays out one paid buy now (a retry after a failed payout, or at once once it is paid). */
    payOut: (orderId: string, actor: string) => payOutByLightning(payoutDeps, orderId, actor),
    /** A failed payout tried again (the customer of the order, or staff): never while one is live. */
    retryPayout: async (orderId: string, who: FailedPayoutActor) =>
      answered(deps, who, 'lightning.retry-payout', await retryLightningPayout(payoutDeps, orderId, who)),
    /** A failed payout turned into an on-chain payout to a confirmed address-book entry. */
    convertToOnchain: async (orderId: string, payoutAddressId: string, who: FailedPayoutActor) =>
      answered(
        deps,
        who,
        'lightning.payout-onchain',
        await convertLightningPayoutToOnchain(payoutDeps, orderId, payoutAddressId, who),
      ),

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

    /** Every open sell invoice and unfinished payout, asked of the node; due payouts sent. */
    async reconcile(): Promise<{ credited: number; resolved: number; paid: number }> {
      const resolved = await resolveSubmitted();
      const paid = await payDueBuys();
      return { credited: await reconcileInvoices(), resolved, paid };
    },
  };

  async function reconcileInvoices(): Promise<number> {
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
  }
}

export type LightningService = ReturnType<typeof createLightningService>;

/**
 * The answer of a retry or conversion: the order as it is now, the customer told if it moved, and
 * staff's doing in the audit log.
 */
async function answered(
  deps: Pick<LightningServiceDeps, 'db' | 'notify'>,
  who: FailedPayoutActor,
  action: string,
  done: { message: string; order: OrderRow },
) {
  if (done.order.status !== 'processing') await deps.notify(done.order);
  if (who.kind === 'staff') {
    await recordAdminAction(deps.db, who.staff, {
      action,
      targetType: 'order',
      targetId: done.order.id,
      after: done.order,
    });
  }
  return { ...done, lightningPayout: await lightningPayoutOfOrder(deps.db, done.order) };
}
