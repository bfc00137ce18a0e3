import { and, desc, eq } from 'drizzle-orm';
import { isValidBitcoinAddress } from '@offzero/shared/bitcoin/address';
import type { SignedInUser } from '../../../auth/sessions';
import { adminActor } from '../../../admin/run-order-action';
import type { Database, Transaction } from '../../../db/database';
import { orderEvents, orders, payouts, type OrderRow, type PayoutRow } from '../../../db/schema';
import { AppError } from '../../../http/errors';
import { isUuid } from '../../../http/ids';
import { lockOrder } from '../../../orders/order.repository';
import { findPayoutOfOrder } from '../../../payouts/payout.repository';
import { findPayoutAddressById } from '../../../payout-addresses/payout-address.repository';
import { PAYOUT_MESSAGES, payOutByLightning, type LightningPayoutDeps } from './pay-out-by-lightning';
import { paysOutByLightning } from '../lightning-destination';

/**
 * What happens to a failed Lightning payout (docs/design.md, "Lightning"): the customer (their own
 * order) or staff try it again — a new payout row, never while another is live — or turn it into an
 * on-chain payout to a confirmed address-book entry, which the next payout batch pays.
 */

export const FAILED_PAYOUT_MESSAGES = {
  notFound: 'Order not found.',
  notFailed: 'This order has no failed Lightning payout to retry or send on chain.',
  live: 'A payout of this order is already on its way or paid; wait for it to finish.',
  addressNotUsable:
    'Choose a confirmed bitcoin address from your address book; this one is not confirmed or was removed.',
  retried: 'We sent your bitcoin by Lightning again.',
  retryFailed: 'The Lightning payout failed again. Try once more, or have it sent on chain.',
  retryPending: 'Your Lightning payout is on its way.',
  converted: 'Your bitcoin will be sent on chain to your address in the next payout batch.',
} as const;

/** Who asks: a customer may touch only their own orders (another's answers 404, as if absent). */
export type FailedPayoutActor = { kind: 'customer'; userId: string } | { kind: 'staff'; staff: SignedInUser };

const actorName = (who: FailedPayoutActor) =>
  who.kind === 'customer' ? `customer:${who.userId}` : adminActor(who.staff);

/** The order's newest Lightning payout, whatever its state. */
export async function latestLightningPayout(
  db: Database | Transaction,
  orderId: string,
): Promise<PayoutRow | undefined> {
  const [payout] = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.orderId, orderId), eq(payouts.purpose, 'payout'), eq(payouts.rail, 'lightning')))
    .orderBy(desc(payouts.createdAt))
    .limit(1);
  return payout;
}

/**
 * The order, if it may be retried or converted now: still paid and waiting (processing), a Lightning
 * destination, its newest Lightning payout failed and no payout live. A live one answers 409.
 */
async function requireFailedPayout(
  db: Database | Transaction,
  orderId: string,
  who: FailedPayoutActor,
): Promise<OrderRow> {
  const [order] = isUuid(orderId) ? await db.select().from(orders).where(eq(orders.id, orderId)) : [];
  if (!order || (who.kind === 'customer' && order.userId !== who.userId)) {
    throw new AppError('NOT_FOUND', FAILED_PAYOUT_MESSAGES.notFound);
  }
  if (await findPayoutOfOrder(db, orderId)) throw new AppError('CONFLICT', FAILED_PAYOUT_MESSAGES.live);
  const latest = await latestLightningPayout(db, orderId);
  // One claimed since the order was read (another retry at the same moment) is live as well.
  if (latest && latest.state !== 'failed' && latest.state !== 'cancelled') {
    throw new AppError('CONFLICT', FAILED_PAYOUT_MESSAGES.live);
  }
  if (order.status !== 'processing' || !paysOutByLightning(order) || latest?.state !== 'failed') {
    throw new AppError('BAD_REQUEST', FAILED_PAYOUT_MESSAGES.notFailed);
  }
  return order;
}

/** Whether the order's failed Lightning payout may be tried again or sent on chain now. */
export async function canRetryLightningPayout(db: Database, order: OrderRow): Promise<boolean> {
  try {
    await requireFailedPayout(db, order.id, { kind: 'customer', userId: order.userId });
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}

/** Tries a failed Lightning payout again: a new attempt, claimed under the order's lock. */
export async function retryLightningPayout(
  deps: LightningPayoutDeps,
  orderId: string,
  who: FailedPayoutActor,
): Promise<{ message: string; order: OrderRow }> {
  await requireFailedPayout(deps.db, orderId, who);
  let payout: PayoutRow;
  try {
    payout = await payOutByLightning(deps, orderId, actorName(who));
  } catch (error) {
    // Another attempt claimed it between our check and our claim: the same answer as a live one.
    if (error instanceof AppError && error.message === PAYOUT_MESSAGES.inFlight) {
      throw new AppError('CONFLICT', FAILED_PAYOUT_MESSAGES.live);
    }
    throw error;
  }
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, orderId));
  const message =
    payout.state === 'settled'
      ? FAILED_PAYOUT_MESSAGES.retried
      : payout.state === 'failed'
        ? FAILED_PAYOUT_MESSAGES.retryFailed
        : FAILED_PAYOUT_MESSAGES.retryPending;
  return { message, order: order! };
}

/**
 * Turns a failed Lightning payout into an on-chain one: the order's destination becomes the confirmed
 * address-book entry (an xpub entry gets its fresh address when the batch is built), so the next
 * payout batch pays it like any buy. Checked again under the order's lock.
 */
export async function convertLightningPayoutToOnchain(
  deps: Pick<LightningPayoutDeps, 'db' | 'network' | 'now'>,
  orderId: string,
  payoutAddressId: string,
  who: FailedPayoutActor,
): Promise<{ message: string; order: OrderRow }> {
  const checked = await requireFailedPayout(deps.db, orderId, who);
  const entry = isUuid(payoutAddressId) ? await findPayoutAddressById(deps.db, payoutAddressId) : undefined;
  const onChain = entry?.xpub ?? (entry?.address && isValidBitcoinAddress(entry.address, deps.network));
  if (!entry || entry.userId !== checked.userId || entry.removedAt || !entry.confirmedAt || !onChain) {
    throw new AppError('BAD_REQUEST', FAILED_PAYOUT_MESSAGES.addressNotUsable);
  }
  const order = await deps.db.transaction(async (tx) => {
    const locked = await lockOrder(tx, orderId);
    if (!locked) throw new AppError('NOT_FOUND', FAILED_PAYOUT_MESSAGES.notFound);
    await requireFailedPayout(tx, orderId, who);
    const [updated] = await tx
      .update(orders)
      .set({
        walletAddress: entry.address,
        payoutAddressId: entry.id,
        payoutIndex: null,
        updatedAt: deps.now(),
      })
      .where(eq(orders.id, orderId))
      .returning();
    await tx.insert(orderEvents).values({
      orderId,
      fromStatus: locked.status,
      toStatus: locked.status,
      actor: actorName(who),
      reason: 'Lightning payout failed; bitcoin to be sent on chain',
      details: {
        event: 'lightning_converted_onchain',
        from: locked.walletAddress,
        payoutAddressId: entry.id,
        address: entry.address,
      },
    });
    return updated!;
  });
  return { message: FAILED_PAYOUT_MESSAGES.converted, order };
}
