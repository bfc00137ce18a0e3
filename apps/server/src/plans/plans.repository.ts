import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { PlanRunStatus, PlanStatus } from '@offzero/shared/api/plans';
import type { Database, Transaction } from '../db/database';
import {
  orderEvents,
  orders,
  payoutAddresses,
  users,
  type OrderRow,
  type QuoteRow,
  type UserRow,
  planRuns,
  plans,
  quotes,
  type PayoutAddressRow,
  type PlanRow,
  type PlanRunRow,
} from '../db/schema';
import { isUuid } from '../http/ids';

/** The SQL of recurring buys (docs/design.md, "Recurring buys"): plans and their runs. */

type Db = Database | Transaction;
export type NewPlan = Omit<typeof plans.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type RunPatch = Partial<Omit<typeof planRuns.$inferInsert, 'id' | 'planId' | 'userId' | 'runOn'>>;

/** How many runs a plan shows, newest first. */
const RUNS_SHOWN = 24;

export async function insertPlan(db: Db, plan: NewPlan): Promise<PlanRow> {
  const [row] = await db.insert(plans).values(plan).returning();
  if (!row) throw new Error('plan insert returned nothing');
  return row;
}

/** The customer's own plan, or null (another customer's plan, or no such id). */
export async function findOwnPlan(db: Db, userId: string, planId: string): Promise<PlanRow | null> {
  if (!isUuid(planId)) return null;
  const [row] = await db
    .select()
    .from(plans)
    .where(and(eq(plans.id, planId), eq(plans.userId, userId)));
  return row ?? null;
}

export async function lockPlan(tx: Transaction, planId: string): Promise<PlanRow | null> {
  const [row] = await tx.select().from(plans).where(eq(plans.id, planId)).for('update');
  return row ?? null;
}

export async function findPlansOf(db: Db, userId: string): Promise<PlanRow[]> {
  return db.select().from(plans).where(eq(plans.userId, userId)).orderBy(asc(plans.createdAt));
}

export async function findRunsOf(db: Db, planIds: readonly string[]): Promise<PlanRunRow[]> {
  if (planIds.length === 0) return [];
  const rows = await db
    .select()
    .from(planRuns)
    .where(inArray(planRuns.planId, [...planIds]))
    .orderBy(desc(planRuns.runOn));
  const shown = new Map<string, number>();
  return rows.filter((row) => {
    const count = (shown.get(row.planId) ?? 0) + 1;
    shown.set(row.planId, count);
    return count <= RUNS_SHOWN;
  });
}

/** Moves a plan's status (and whether a bank return paused it) when it is in one of `from`. */
export async function setPlanStatus(
  db: Db,
  planId: string,
  change: { to: PlanStatus; from: readonly PlanStatus[]; pausedByReturn: boolean; nextRunOn?: string },
): Promise<PlanRow | null> {
  const [row] = await db
    .update(plans)
    .set({
      status: change.to,
      pausedByReturn: change.pausedByReturn,
      ...(change.nextRunOn ? { nextRunOn: change.nextRunOn } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(plans.id, planId), inArray(plans.status, [...change.from])))
    .returning();
  return row ?? null;
}

export async function setNextRunOn(tx: Transaction, planId: string, nextRunOn: string): Promise<void> {
  await tx.update(plans).set({ nextRunOn, updatedAt: new Date() }).where(eq(plans.id, planId));
}

/** Active plans whose next run is on or before `day`. */
export async function findDuePlanIds(db: Db, day: string, limit = 200): Promise<string[]> {
  const rows = await db
    .select({ id: plans.id })
    .from(plans)
    .where(and(eq(plans.status, 'active'), lte(plans.nextRunOn, day)))
    .orderBy(asc(plans.nextRunOn))
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Makes a plan's run of one day, or null when that day's run exists already (it is never made twice). */
export async function insertRun(
  tx: Transaction,
  run: {
    planId: string;
    userId: string;
    runOn: string;
    status: PlanRunStatus;
    amountCents: bigint;
    note?: string;
  },
): Promise<PlanRunRow | null> {
  const [row] = await tx
    .insert(planRuns)
    .values(run)
    .onConflictDoNothing({ target: [planRuns.planId, planRuns.runOn] })
    .returning();
  return row ?? null;
}

export async function findRun(db: Db, runId: string): Promise<PlanRunRow | null> {
  const [row] = await db.select().from(planRuns).where(eq(planRuns.id, runId));
  return row ?? null;
}

export async function findRunByTransfer(db: Db, transferId: string): Promise<PlanRunRow | null> {
  const [row] = await db.select().from(planRuns).where(eq(planRuns.transferId, transferId));
  return row ?? null;
}

/**
 * Changes a run only while it is in one of `from`: of two workers (or two deliveries of one bank
 * event) making the same change, one gets the row, the other null.
 */
export async function updateRun(
  db: Db,
  runId: string,
  from: readonly PlanRunStatus[],
  patch: RunPatch,
): Promise<PlanRunRow | null> {
  const [row] = await db
    .update(planRuns)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(planRuns.id, runId), inArray(planRuns.status, [...from])))
    .returning();
  return row ?? null;
}

/** Records a run's quote or order once: the first writer's stays. */
export async function recordRunStep(
  db: Db,
  runId: string,
  step: { quoteId: string } | { orderId: string },
): Promise<PlanRunRow | null> {
  const column = 'quoteId' in step ? planRuns.quoteId : planRuns.orderId;
  const [row] = await db
    .update(planRuns)
    .set({ ...step, updatedAt: new Date() })
    .where(and(eq(planRuns.id, runId), sql`${column} is null`))
    .returning();
  return row ?? (await findRun(db, runId));
}

/** The order a quote was claimed by, if it was. */
export async function findQuoteOrderId(db: Db, quoteId: string): Promise<string | null> {
  const [row] = await db.select({ orderId: quotes.orderId }).from(quotes).where(eq(quotes.id, quoteId));
  return row?.orderId ?? null;
}

/** Runs in these states last changed before `before`, oldest first: the run job's work. */
export async function findRunsIn(
  db: Db,
  statuses: readonly PlanRunStatus[],
  before: Date,
  limit = 100,
): Promise<PlanRunRow[]> {
  return db
    .select()
    .from(planRuns)
    .where(and(inArray(planRuns.status, [...statuses]), lte(planRuns.updatedAt, before)))
    .orderBy(asc(planRuns.updatedAt))
    .limit(limit);
}

/** The newest plans with their customer's e-mail: the back office's list. */
export async function findAllPlans(db: Db, limit = 200): Promise<{ plan: PlanRow; email: string | null }[]> {
  return db
    .select({ plan: plans, email: users.email })
    .from(plans)
    .leftJoin(users, eq(users.id, plans.userId))
    .orderBy(desc(plans.createdAt))
    .limit(limit);
}

/** One of the customer's address-book entries, removed ones too (a plan says why it cannot use them). */
export async function findOwnAddressEntry(
  db: Db,
  userId: string,
  entryId: string,
): Promise<PayoutAddressRow | null> {
  if (!isUuid(entryId)) return null;
  const [row] = await db
    .select()
    .from(payoutAddresses)
    .where(and(eq(payoutAddresses.id, entryId), eq(payoutAddresses.userId, userId)));
  return row ?? null;
}

export async function findPlanCustomer(db: Db, userId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row ?? null;
}

export async function findPlan(db: Db, planId: string): Promise<PlanRow | null> {
  const [row] = await db.select().from(plans).where(eq(plans.id, planId));
  return row ?? null;
}

/**
 * Releases a run's buy to the payout batch: its payment confirmed (the debit settled and the hold
 * passed), once, with the bank's trace number, and the step in the order's timeline.
 */
export async function confirmRunPayment(
  tx: Transaction,
  orderId: string,
  payment: { traceNumber: string | null; reason: string; now: Date },
): Promise<OrderRow | null> {
  const [updated] = await tx
    .update(orders)
    .set({
      paymentConfirmedAt: payment.now,
      paymentConfirmedBy: 'system:recurring',
      bankTxn: payment.traceNumber,
      updatedAt: payment.now,
    })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'processing'), isNull(orders.paymentConfirmedAt)))
    .returning();
  if (!updated) return null;
  await tx.insert(orderEvents).values({
    orderId,
    fromStatus: 'processing',
    toStatus: 'processing',
    actor: 'system:recurring',
    reason: payment.reason,
    details: { event: 'payment_confirmed', bankTxn: payment.traceNumber },
  });
  return updated;
}

/** Flags a run's paid-out buy whose debit came back (`payment_reversed`), once; the before row, or null. */
export async function flagReversedOrder(
  tx: Transaction,
  orderId: string,
  note: string,
): Promise<{ before: OrderRow; after: OrderRow } | null> {
  const [before] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!before || before.flag === 'payment_reversed') return null;
  const [after] = await tx
    .update(orders)
    .set({ flag: 'payment_reversed', flagNote: note, updatedAt: new Date() })
    .where(eq(orders.id, orderId))
    .returning();
  return after ? { before, after } : null;
}

export async function findRunQuote(db: Db, quoteId: string): Promise<QuoteRow | null> {
  const [row] = await db.select().from(quotes).where(eq(quotes.id, quoteId));
  return row ?? null;
}

export async function findRunOrder(db: Db, orderId: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(orders).where(eq(orders.id, orderId));
  return row ?? null;
}
