import { and, asc, desc, eq, gte, inArray, isNull, lt, ne, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { CaseOutcome, CaseRule, CaseStatus } from '@offzero/shared/api/cases';
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
  type MonitoringCaseNoteRow,
  type MonitoringCaseRow,
} from '../db/schema';
import {
  STRUCTURING_FLOOR_CENTS,
  STRUCTURING_LIMIT_CENTS,
  type MonitoredOrder,
} from './monitoring-rules';

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

/** The orders named, as the rules see them (with the version the rules run on). */
export async function findMonitoredOrders(
  db: Database,
  orderIds: readonly string[],
): Promise<(MonitoredOrder & { updatedAt: Date })[]> {
  if (orderIds.length === 0) return [];
  return db
    .select({ ...monitoredColumns, updatedAt: orders.updatedAt })
    .from(orders)
    .where(inArray(orders.id, [...orderIds]));
}

/** A customer's orders created from `from` up to and including `until`. */
export interface OrderSpan {
  userId: string;
  from: Date;
  until: Date;
  /** Only orders in the structuring band (the customer's velocity case is open: it needs no count). */
  bandedOnly: boolean;
}

/** The orders in any of the spans (one statement for a whole batch), oldest first. */
export async function findOrdersInSpans(
  db: Database,
  spans: readonly OrderSpan[],
): Promise<MonitoredOrder[]> {
  if (spans.length === 0) return [];
  return db
    .select(monitoredColumns)
    .from(orders)
    .where(
      or(
        ...spans.map((span) =>
          and(
            eq(orders.userId, span.userId),
            gte(orders.createdAt, span.from),
            // PostgreSQL keeps microseconds and a Date only milliseconds: an order's own `createdAt`,
            // read back, is up to 1 ms earlier than the stored one. The span ends just before the next
            // millisecond, so that the order whose rules run is always in it.
            lt(orders.createdAt, new Date(span.until.getTime() + 1)),
            span.bandedOnly
              ? and(
                  gte(orders.valueCents, STRUCTURING_FLOOR_CENTS),
                  lt(orders.valueCents, STRUCTURING_LIMIT_CENTS),
                )
              : undefined,
          ),
        ),
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

export interface VerifiedIdentity {
  approvedAt: Date | null;
  name: string | null;
}

/** For each customer: when their identity was approved (if it is) and the name it was verified under. */
export async function findVerifiedIdentities(
  db: Database,
  userIds: readonly string[],
): Promise<Map<string, VerifiedIdentity>> {
  const identities = new Map<string, VerifiedIdentity>();
  if (userIds.length === 0) return identities;
  const rows = await db
    .select({
      userId: users.id,
      status: kycRecords.status,
      legalName: kycRecords.legalName,
      decidedAt: kycRecords.decidedAt,
      updatedAt: kycRecords.updatedAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(users)
    .leftJoin(kycRecords, eq(kycRecords.userId, users.id))
    .where(inArray(users.id, [...userIds]));
  for (const row of rows) {
    const accountName = `${row.firstName} ${row.lastName}`.trim();
    identities.set(row.userId, {
      approvedAt: row.status === 'GREEN' ? (row.decidedAt ?? row.updatedAt) : null,
      name: row.legalName?.trim() || accountName || null,
    });
  }
  return identities;
}

/**
 * The cases that keep a finding from opening one: each customer's cases not closed (one per rule),
 * and any case of the events named (`triggerKey`), as `userId rule` and `userId rule triggerKey`.
 */
export async function findCasesInTheWay(
  db: Database,
  userIds: readonly string[],
  triggerKeys: readonly string[],
): Promise<Set<string>> {
  const taken = new Set<string>();
  if (userIds.length === 0) return taken;
  const rows = await db
    .select({
      userId: monitoringCases.userId,
      rule: monitoringCases.rule,
      triggerKey: monitoringCases.triggerKey,
      status: monitoringCases.status,
    })
    .from(monitoringCases)
    .where(
      and(
        inArray(monitoringCases.userId, [...userIds]),
        triggerKeys.length > 0
          ? or(ne(monitoringCases.status, 'closed'), inArray(monitoringCases.triggerKey, [...triggerKeys]))
          : ne(monitoringCases.status, 'closed'),
      ),
    );
  for (const row of rows) {
    if (row.status !== 'closed') taken.add(`${row.userId} ${row.rule}`);
    taken.add(`${row.userId} ${row.rule} ${row.triggerKey}`);
  }
  return taken;
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

/** Records that the rules ran on these versions of the orders (one statement for a batch). */
export async function markOrdersChecked(
  db: Database,
  checked: readonly { orderId: string; orderUpdatedAt: Date }[],
): Promise<void> {
  if (checked.length === 0) return;
  const now = new Date();
  await db
    .insert(orderMonitoringMarks)
    .values(checked.map((entry) => ({ ...entry, checkedAt: now })))
    .onConflictDoUpdate({
      target: orderMonitoringMarks.orderId,
      set: { orderUpdatedAt: sql`excluded.order_updated_at`, checkedAt: now },
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
