import { and, count, eq, ne } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import {
  globalSettings,
  orderEvents,
  orders,
  referralRewards,
  users,
  type OrderRow,
  type OrderStatus,
} from '../db/schema';
import { AppError } from '../http/errors';
import { recordOrderNotices } from './order-notifications';

/**
 * The one place an order's status changes (docs/design.md). Each move locks the order row,
 * checks that the move is allowed from where the order is now, writes the audit record, the customer's
 * notices (into the outbox) and — when the order completes — credits the referral reward, all in the
 * same transaction.
 */
const allowedMoves: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['processing', 'expired', 'cancelled'],
  // back to pending: a sell deposit that vanished from the chain
  processing: ['completed', 'cancelled', 'pending'],
  // to processing: a sell deposit that arrived after the window closed
  expired: ['processing', 'cancelled'],
  completed: [],
  cancelled: [],
};

type OrderPatch = Partial<Omit<typeof orders.$inferInsert, 'id' | 'userId' | 'status' | 'createdAt'>>;

export interface OrderMove {
  orderId: string;
  to: OrderStatus;
  /** Only move if the order is in one of these states now (else 409). */
  from: readonly OrderStatus[];
  /** `user:<id>`, `admin:<id>` or `system:<job>`. */
  actor: string;
  reason: string;
  patch?: OrderPatch;
  details?: Record<string, unknown>;
}

export class OrderStateError extends AppError {}

/** Moves an order inside the caller's transaction; returns the updated row. */
export async function moveOrder(tx: Transaction, move: OrderMove): Promise<OrderRow> {
  const [current] = await tx.select().from(orders).where(eq(orders.id, move.orderId)).for('update');
  if (!current) throw new AppError('NOT_FOUND', 'Order not found.');
  if (!move.from.includes(current.status) || !allowedMoves[current.status].includes(move.to)) {
    throw new OrderStateError(
      'CONFLICT',
      `This order is ${current.status}, so it cannot move to ${move.to}.`,
    );
  }
  const now = new Date();
  const [updated] = await tx
    .update(orders)
    .set({
      ...move.patch,
      status: move.to,
      updatedAt: now,
      ...(move.to === 'completed' ? { completedAt: now } : {}),
    })
    .where(eq(orders.id, current.id))
    .returning();
  if (!updated) throw new Error('order update returned nothing');
  const [event] = await tx
    .insert(orderEvents)
    .values({
      orderId: current.id,
      fromStatus: current.status,
      toStatus: move.to,
      actor: move.actor,
      reason: move.reason,
      details: withChanges(move.details, current, updated),
    })
    .returning({ id: orderEvents.id });
  if (!event) throw new Error('order event insert returned nothing');
  if (move.to === 'completed') await creditReferralReward(tx, updated);
  // The customer's notices commit with the move; the caller delivers them once it is committed.
  await recordOrderNotices(tx, updated, { eventKey: `order-event:${event.id}`, messages: true });
  return updated;
}

/**
 * Records a re-quote of a pending order in the audit trail: the status stays `pending`, the figures
 * change, so the event keeps both sets of figures (integer cents and satoshis, as text) and why.
 */
export async function recordOrderRequoted(
  tx: Transaction,
  change: {
    before: OrderRow;
    after: OrderRow;
    actor: string;
    reason: string;
    /** What made a deposit re-price the order: `late_deposit`, `underpaid`, `overpaid`, `over_limit`… */
    why?: string | null;
  },
): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: change.after.id,
    fromStatus: change.before.status,
    toStatus: change.after.status,
    actor: change.actor,
    reason: change.reason,
    details: {
      event: 'requoted',
      before: quoteFigures(change.before),
      after: quoteFigures(change.after),
      ...(change.why ? { why: change.why } : {}),
      ...flagChange(change.before, change.after),
    },
  });
}

/**
 * Records a change of the order's flag that comes with no status change (a flag raised by a watcher or
 * a capture check, or cleared by staff), so the customer's timeline can say when a review started and
 * how it ended. `resolution` says in a word how a cleared flag ended: `reviewed` or `refunded`.
 */
export async function recordFlagChange(
  tx: Database | Transaction,
  change: {
    before: Pick<OrderRow, 'id' | 'status' | 'flag'>;
    after: Pick<OrderRow, 'flag'>;
    actor: string;
    resolution?: 'reviewed' | 'refunded';
  },
): Promise<void> {
  if (change.before.flag === change.after.flag) return;
  await tx.insert(orderEvents).values({
    orderId: change.before.id,
    fromStatus: change.before.status,
    toStatus: change.before.status,
    actor: change.actor,
    reason: change.after.flag ? `flagged ${change.after.flag}` : `flag ${change.before.flag} cleared`,
    details: {
      event: change.after.flag ? 'flagged' : 'flag_cleared',
      ...flagChange(change.before, change.after),
      ...(change.resolution ? { resolution: change.resolution } : {}),
    },
  });
}

/** The flag before and after, when it changed. */
function flagChange(
  before: Pick<OrderRow, 'flag'>,
  after: Pick<OrderRow, 'flag'>,
): { flag?: { from: string | null; to: string | null } } {
  return before.flag === after.flag ? {} : { flag: { from: before.flag, to: after.flag } };
}

/**
 * A move's details, plus what else it changed: the flag, and the figures when the move re-priced the
 * order (a late or wrong-sized deposit), so each re-pricing keeps its before and after.
 */
function withChanges(
  details: Record<string, unknown> | undefined,
  before: OrderRow,
  after: OrderRow,
): Record<string, unknown> | null {
  const repriced =
    before.amountSats !== after.amountSats ||
    before.valueCents !== after.valueCents ||
    before.priceCents !== after.priceCents;
  const extra = {
    ...flagChange(before, after),
    ...(repriced ? { repriced: { before: quoteFigures(before), after: quoteFigures(after) } } : {}),
  };
  if (!details && Object.keys(extra).length === 0) return null;
  return { ...details, ...extra };
}

function quoteFigures(order: OrderRow): Record<string, string | null> {
  return {
    amountSats: order.amountSats.toString(),
    valueCents: order.valueCents.toString(),
    priceCents: order.priceCents.toString(),
    platformFeeCents: order.platformFeeCents.toString(),
    networkFeeCents: order.networkFeeCents.toString(),
    bankFeeCents: order.bankFeeCents.toString(),
    priceSnapshotId: order.priceSnapshotId,
    walletAddress: order.walletAddress,
    quoteExpiresAt: order.quoteExpiresAt.toISOString(),
  };
}

/**
 * docs/design.md: when a referred customer's order completes and it is among their first
 * `trades_eligible` completed orders, the referrer earns `reward`% of its platform fee.
 */
async function creditReferralReward(tx: Transaction, order: OrderRow): Promise<void> {
  // Locking the trading customer serialises their completions, so the eligibility count is exact.
  const [customer] = await tx
    .select({ referredBy: users.referredByUserId })
    .from(users)
    .where(eq(users.id, order.userId))
    .for('update');
  if (!customer?.referredBy) return;
  const [settings] = await tx
    .select({ rewardBps: globalSettings.referralRewardBps, eligible: globalSettings.referralTradesEligible })
    .from(globalSettings);
  if (!settings) return;
  const [earlier] = await tx
    .select({ completed: count() })
    .from(orders)
    .where(and(eq(orders.userId, order.userId), eq(orders.status, 'completed'), ne(orders.id, order.id)));
  if ((earlier?.completed ?? 0) >= settings.eligible) return;
  const rewardCents = (order.platformFeeCents * BigInt(settings.rewardBps)) / 10_000n;
  await tx
    .insert(referralRewards)
    .values({
      referrerUserId: customer.referredBy,
      tradingUserId: order.userId,
      orderId: order.id,
      platformFeeCents: order.platformFeeCents,
      rewardCents,
    })
    .onConflictDoNothing({ target: referralRewards.orderId });
}
