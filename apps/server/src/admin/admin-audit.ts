import type { Transaction } from '../orders/order-state';
import type { Database } from '../db/database';
import { adminActions } from '../db/schema';
import type { SignedInUser } from '../auth/sessions';

/** bigint and Date values made JSON-safe for the audit record. */
export function auditable(value: object | null | undefined): Record<string, unknown> | null {
  if (!value) return null;
  return JSON.parse(
    JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
  ) as Record<string, unknown>;
}

/** Writes one audit entry, inside the same transaction as the change it describes. */
export async function recordAdminAction(
  tx: Transaction | Database,
  admin: SignedInUser,
  entry: {
    action: string;
    targetType: 'order' | 'user' | 'kyc' | 'settings';
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
