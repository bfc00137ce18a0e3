import type { Database } from '../../db/database';
import { isUuid } from '../../http/ids';
import { findCases, type CaseFilters, type CaseWithEmail } from '../cases.repository';

/** Cases matching every filter given, newest first. A customer id that cannot exist matches none. */
export async function listCases(deps: { db: Database }, filters: CaseFilters): Promise<CaseWithEmail[]> {
  if (filters.userId && !isUuid(filters.userId)) return [];
  return findCases(deps.db, filters);
}
