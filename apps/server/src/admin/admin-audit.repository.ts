import { and, desc, eq, ilike, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { adminActions, type AdminActionRow } from '../db/schema';
import type { SignedInUser } from '../auth/sessions';

export type AuditTargetType = AdminActionRow['targetType'];

export interface AuditFilters {
  /** The start of an action name: `order` finds `order.cancel`, `order.mark_paid`… */
  action?: string | undefined;
  targetType?: AuditTargetType | undefined;
  targetId?: string | undefined;
  /** Part of the acting admin's e-mail. */
  admin?: string | undefined;
  limit: number;
}

/** bigint and Date values made JSON-safe for the audit record. */
export function auditable(value: object | null | undefined): Record<string, unknown> | null {
  if (!value) return null;
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
  ) as Record<string, unknown>;
}

const escapeLike = (text: string) => text.replace(/[%_\\]/g, '\\$&');

/** Writes one audit entry, inside the same transaction as the change it describes. */
export async function recordAdminAction(
  tx: Transaction | Database,
  admin: SignedInUser,
  entry: {
    action: string;
    targetType: AuditTargetType;
    targetId: string;
    before?: object | null;
    after?: object | null;
    note?: string | null;
  },
): Promise<void> {
  await tx.insert(adminActions).values({
    adminUserId: admin.user.id,
    adminEmail: admin.user.email,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    before: auditable(entry.before),
    after: auditable(entry.after),
    note: entry.note ?? null,
  });
}

/** The newest audit entries matching every filter given. */
export async function findAuditEntries(db: Database, filters: AuditFilters): Promise<AdminActionRow[]> {
  const conditions: SQL[] = [];
  if (filters.action) conditions.push(ilike(adminActions.action, `${escapeLike(filters.action)}%`));
  if (filters.targetType) conditions.push(eq(adminActions.targetType, filters.targetType));
  if (filters.targetId) conditions.push(eq(adminActions.targetId, filters.targetId));
  if (filters.admin) conditions.push(ilike(adminActions.adminEmail, `%${escapeLike(filters.admin)}%`));
  return db
    .select()
    .from(adminActions)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(adminActions.createdAt))
    .limit(filters.limit);
}
