import { and, desc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import {
  jurisdictionEditRequests,
  jurisdictionRules,
  kycRecords,
  shieldDecisions,
  type JurisdictionEditRequestRow,
  type JurisdictionRuleRow,
  type ShieldDecision,
} from '../db/schema';

type Reader = Database | Transaction;

/** The rules in force: each place's newest row, and the newest version of all. */
export async function findRulesInForce(
  db: Reader,
): Promise<{ version: number; rules: JurisdictionRuleRow[] }> {
  const rules = await db
    .selectDistinctOn([jurisdictionRules.code])
    .from(jurisdictionRules)
    .orderBy(jurisdictionRules.code, desc(jurisdictionRules.version));
  const version = rules.reduce((newest, rule) => Math.max(newest, rule.version), 0);
  return { version, rules };
}

/** One place's rules at `version` (its newest row of a version at most that), or in force now. */
export async function findPlaceRule(
  db: Reader,
  code: string,
  version?: number,
): Promise<JurisdictionRuleRow | undefined> {
  const [rule] = await db
    .select()
    .from(jurisdictionRules)
    .where(
      and(
        eq(jurisdictionRules.code, code),
        version === undefined ? undefined : lte(jurisdictionRules.version, version),
      ),
    )
    .orderBy(desc(jurisdictionRules.version))
    .limit(1);
  return rule;
}

/** The newest version of the rules (0 before any). */
export async function findRulesVersion(db: Reader): Promise<number> {
  const [row] = await db
    .select({ version: sql<number>`coalesce(max(${jurisdictionRules.version}), 0)::int` })
    .from(jurisdictionRules);
  return Number(row?.version ?? 0);
}

/** Where the customer lives and when their identity was approved, from their KYC record. */
export async function findResidence(
  db: Reader,
  userId: string,
): Promise<{ residenceState: string | null; status: string; decidedAt: Date | null } | null> {
  const [row] = await db
    .select({
      residenceState: kycRecords.residenceState,
      status: kycRecords.status,
      decidedAt: kycRecords.decidedAt,
    })
    .from(kycRecords)
    .where(eq(kycRecords.userId, userId));
  return row ?? null;
}

/**
 * Writes a place's new rules as the next version. The table is locked for the statement's transaction
 * so that two edits at once take two versions, one after the other.
 */
export async function insertRuleVersion(
  tx: Transaction,
  rule: Omit<JurisdictionRuleRow, 'version' | 'createdAt'>,
): Promise<JurisdictionRuleRow> {
  await tx.execute(sql`lock table ${jurisdictionRules} in share row exclusive mode`);
  const version = (await findRulesVersion(tx)) + 1;
  const [row] = await tx
    .insert(jurisdictionRules)
    .values({ ...rule, version })
    .returning();
  if (!row) throw new Error('jurisdiction rule insert returned nothing');
  return row;
}

export async function findOpenEditRequest(
  tx: Transaction,
  code: string,
): Promise<JurisdictionEditRequestRow | undefined> {
  const [row] = await tx
    .select()
    .from(jurisdictionEditRequests)
    .where(and(eq(jurisdictionEditRequests.code, code), isNull(jurisdictionEditRequests.approvedAt)))
    .for('update');
  return row;
}

export async function listOpenEditRequests(db: Reader): Promise<JurisdictionEditRequestRow[]> {
  return db
    .select()
    .from(jurisdictionEditRequests)
    .where(isNull(jurisdictionEditRequests.approvedAt))
    .orderBy(jurisdictionEditRequests.createdAt);
}

export async function saveEditRequest(
  tx: Transaction,
  values: {
    id?: string;
    code: string;
    rules: Record<string, unknown>;
    requestedByUserId: string;
    requestedByEmail: string;
  },
): Promise<JurisdictionEditRequestRow> {
  if (values.id) {
    const [row] = await tx
      .update(jurisdictionEditRequests)
      .set({ rules: values.rules, createdAt: new Date() })
      .where(eq(jurisdictionEditRequests.id, values.id))
      .returning();
    if (!row) throw new Error('jurisdiction edit request vanished while locked');
    return row;
  }
  const [row] = await tx.insert(jurisdictionEditRequests).values(values).returning();
  if (!row) throw new Error('jurisdiction edit request insert returned nothing');
  return row;
}

export async function closeEditRequest(tx: Transaction, id: string, approvedByUserId: string): Promise<void> {
  await tx
    .update(jurisdictionEditRequests)
    .set({ approvedByUserId, approvedAt: new Date() })
    .where(and(eq(jurisdictionEditRequests.id, id), isNull(jurisdictionEditRequests.approvedAt)));
}

/** Records a decision of the places rules or the scam shield (the shield's audit trail). */
export async function recordShieldDecision(
  db: Reader,
  entry: {
    userId: string;
    decision: ShieldDecision;
    orderId?: string | null;
    route?: string | null;
    detail?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(shieldDecisions).values({
    userId: entry.userId,
    decision: entry.decision,
    orderId: entry.orderId ?? null,
    route: entry.route ?? null,
    detail: entry.detail ?? {},
  });
}

/** How many decisions of each kind were made (for the metrics). */
export async function countShieldDecisions(
  db: Reader,
): Promise<{ decision: ShieldDecision; count: number }[]> {
  const rows = await db
    .select({ decision: shieldDecisions.decision, count: sql<number>`count(*)::int` })
    .from(shieldDecisions)
    .groupBy(shieldDecisions.decision);
  return rows.map((row) => ({ decision: row.decision, count: Number(row.count) }));
}
