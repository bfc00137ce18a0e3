import { and, asc, desc, eq, gte, inArray, isNull, lt, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import {
  adminActions,
  kycRecords,
  monitoringCaseNotes,
  monitoringCases,
  orderMonitoringMarks,
  orders,
  users,
  type AdminActionRow,
  type CaseOutcome,
  type CaseRule,
  type CaseStatus,
  type MonitoringCaseNoteRow,
  type MonitoringCaseRow,
} from '../db/schema';
import type { MonitoredOrder } from './monitoring-rules';

const monitoredColumns = {
  id: orders.id,
  userId: orders.userId,
  type: orders.type,
  status: orders.status,
  valueCents: orders.valueCents,
  createdAt: orders.createdAt,
  walletAddress: orders.walletAddress,
  paymentMethod: orders.paymentMethod,
  receivingDetails: orders.receivingDetails,
  flag: orders.flag,
  flagNote: orders.flagNote,
};

export async function findMonitoredOrder(
  db: Database,
  orderId: string,
): Promise<(MonitoredOrder & { updatedAt: Date }) | undefined> {
  const [row] = await db
    .select({ ...monitoredColumns, updatedAt: orders.updatedAt })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row;
}

/** The customer's orders created from `from` up to and including `until`. */
export async function findOrdersBetween(
  db: Database,
  userId: string,
  from: Date,
  until: Date,
): Promise<MonitoredOrder[]> {
  return db
    .select(monitoredColumns)
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        gte(orders.createdAt, from),
        // PostgreSQL keeps microseconds and a Date only milliseconds: an order's own `createdAt`, read
        // back, is up to 1 ms earlier than the stored one. The window ends just before the next
        // millisecond, so that the order whose rules run is always in it.
        lt(orders.createdAt, new Date(until.getTime() + 1)),
      ),
    )
    .orderBy(asc(orders.createdAt));
}

/** How many of the customer's orders before `order` became trades (not cancelled or expired). */
export async function countEarlierTrades(db: Database, order: MonitoredOrder): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(orders)
    .where(
      and(
        eq(orders.userId, order.userId),
        ne(orders.id, order.id),
        lt(orders.createdAt, order.createdAt),
        notInArray(orders.status, ['cancelled', 'expired']),
      ),
    );
  return Number(row?.count ?? 0);
}

/** When the customer's identity was approved (if it is) and the name it was verified under. */
export async function findVerifiedIdentity(
  db: Database,
  userId: string,
): Promise<{ approvedAt: Date | null; name: string | null }> {
  const [row] = await db
    .select({
      status: kycRecords.status,
      legalName: kycRecords.legalName,
      decidedAt: kycRecords.decidedAt,
      updatedAt: kycRecords.updatedAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .leftJoin(kycRecords, eq(kycRecords.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) return { approvedAt: null, name: null };
  const accountName = `${row.firstName} ${row.lastName}`.trim();
  return {
    approvedAt: row.status === 'GREEN' ? (row.decidedAt ?? row.updatedAt) : null,
    name: row.legalName?.trim() || accountName || null,
  };
}

/** Other customers' orders paying the same bitcoin address (buys) or bank account number (sells). */
export async function findOtherCustomersPaying(
  db: Database,
  userId: string,
  destination: { kind: 'address' | 'bank_account'; value: string },
): Promise<{ userId: string; orderId: string; at: Date }[]> {
  const same =
    destination.kind === 'address'
      ? and(eq(orders.type, 'buy'), sql`lower(${orders.walletAddress}) = ${destination.value}`)
      : and(
          eq(orders.type, 'sell'),
          inArray(orders.paymentMethod, ['ach', 'wire']),
          sql`regexp_replace(${orders.receivingDetails}->>'account_number', '\\s', '', 'g') = ${destination.value}`,
        );
  return db
    .select({ userId: orders.userId, orderId: orders.id, at: orders.createdAt })
    .from(orders)
    .where(and(ne(orders.userId, userId), same))
    .orderBy(asc(orders.createdAt))
    .limit(20);
}

/**
 * Opens a case unless the customer already has one of this rule that is not closed, or this event
 * already opened one: both are unique indexes, so two jobs at once open one case.
 */
export async function openCase(
  db: Database,
  entry: { userId: string; rule: CaseRule; triggerKey: string; evidence: Record<string, unknown>; now: Date },
): Promise<MonitoringCaseRow | undefined> {
  const [row] = await db
    .insert(monitoringCases)
    .values({
      userId: entry.userId,
      rule: entry.rule,
      triggerKey: entry.triggerKey,
      evidence: entry.evidence,
      openedAt: entry.now,
      updatedAt: entry.now,
    })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** Records that the rules ran on this version of the order. */
export async function markOrderChecked(db: Database, orderId: string, orderUpdatedAt: Date): Promise<void> {
  await db
    .insert(orderMonitoringMarks)
    .values({ orderId, orderUpdatedAt, checkedAt: new Date() })
    .onConflictDoUpdate({
      target: orderMonitoringMarks.orderId,
      set: { orderUpdatedAt, checkedAt: new Date() },
      // A slower run of an older version never moves the mark back.
      setWhere: sql`${orderMonitoringMarks.orderUpdatedAt} < excluded.order_updated_at`,
    });
}

/** Orders changed since the rules last ran on them (or never checked), oldest change first. */
export async function findOrdersToMonitor(db: Database, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: orders.id })
    .from(orders)
    .leftJoin(orderMonitoringMarks, eq(orderMonitoringMarks.orderId, orders.id))
    .where(
      or(isNull(orderMonitoringMarks.orderId), lt(orderMonitoringMarks.orderUpdatedAt, orders.updatedAt)),
    )
    .orderBy(asc(orders.updatedAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

export interface CaseFilters {
  userId?: string | undefined;
  status?: CaseStatus | undefined;
  rule?: CaseRule | undefined;
  limit: number;
}

export type CaseWithEmail = MonitoringCaseRow & { customerEmail: string | null };

const withEmail = { case: monitoringCases, customerEmail: users.email };

export async function findCases(db: Database, filters: CaseFilters): Promise<CaseWithEmail[]> {
  const conditions: SQL[] = [];
  if (filters.userId) conditions.push(eq(monitoringCases.userId, filters.userId));
  if (filters.status) conditions.push(eq(monitoringCases.status, filters.status));
  if (filters.rule) conditions.push(eq(monitoringCases.rule, filters.rule));
  const rows = await db
    .select(withEmail)
    .from(monitoringCases)
    .leftJoin(users, eq(users.id, monitoringCases.userId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(monitoringCases.openedAt), desc(monitoringCases.id))
    .limit(filters.limit);
  return rows.map((row) => ({ ...row.case, customerEmail: row.customerEmail }));
}

export async function findCase(db: Database, caseId: string): Promise<CaseWithEmail | undefined> {
  const [row] = await db
    .select(withEmail)
    .from(monitoringCases)
    .leftJoin(users, eq(users.id, monitoringCases.userId))
    .where(eq(monitoringCases.id, caseId));
  return row ? { ...row.case, customerEmail: row.customerEmail } : undefined;
}

/** The case row, locked until the transaction ends, so two reviewers' changes apply one after the other. */
export async function lockCase(tx: Transaction, caseId: string): Promise<MonitoringCaseRow | undefined> {
  const [row] = await tx.select().from(monitoringCases).where(eq(monitoringCases.id, caseId)).for('update');
  return row;
}

export async function updateCase(
  tx: Transaction,
  caseId: string,
  change: {
    status: CaseStatus;
    outcome: CaseOutcome | null;
    sarFiledAt: string | null;
    sarReference: string | null;
    closedAt: Date | null;
    now: Date;
  },
): Promise<MonitoringCaseRow> {
  const [row] = await tx
    .update(monitoringCases)
    .set({
      status: change.status,
      outcome: change.outcome,
      sarFiledAt: change.sarFiledAt,
      sarReference: change.sarReference,
      closedAt: change.closedAt,
      updatedAt: change.now,
    })
    .where(eq(monitoringCases.id, caseId))
    .returning();
  if (!row) throw new Error(`case ${caseId} vanished while locked`);
  return row;
}

export async function insertCaseNote(
  tx: Transaction,
  note: { caseId: string; adminUserId: string; adminEmail: string; note: string; now: Date },
): Promise<void> {
  await tx.insert(monitoringCaseNotes).values({ ...note, createdAt: note.now });
}

export async function findCaseNotes(db: Database, caseId: string): Promise<MonitoringCaseNoteRow[]> {
  return db
    .select()
    .from(monitoringCaseNotes)
    .where(eq(monitoringCaseNotes.caseId, caseId))
    .orderBy(asc(monitoringCaseNotes.createdAt), asc(monitoringCaseNotes.id));
}

/** The audit entries of a case, oldest first: its history after opening. */
export async function findCaseAudit(db: Database, caseId: string): Promise<AdminActionRow[]> {
  return db
    .select()
    .from(adminActions)
    .where(and(eq(adminActions.targetType, 'case'), eq(adminActions.targetId, caseId)))
    .orderBy(asc(adminActions.createdAt), asc(adminActions.id));
}
