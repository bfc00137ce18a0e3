import type { Database } from '../../db/database';
import type { AdminActionRow } from '../../db/schema';
import { findAuditEntries, type AuditFilters } from '../admin-audit.repository';

/** The newest audit entries matching every filter given. */
export async function listAuditEntries(
  deps: { db: Database },
  filters: AuditFilters,
): Promise<AdminActionRow[]> {
  return findAuditEntries(deps.db, filters);
}
