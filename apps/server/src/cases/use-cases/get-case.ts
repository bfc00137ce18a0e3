import { CASE_MESSAGES } from '@offzero/shared/api/cases';
import type { Database } from '../../db/database';
import type { AdminActionRow, MonitoringCaseNoteRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { findCase, findCaseAudit, findCaseNotes, type CaseWithEmail } from '../cases.repository';

export interface CaseWithRecords {
  case: CaseWithEmail;
  notes: MonitoringCaseNoteRow[];
  /** Every change staff made, from the audit log. */
  audit: AdminActionRow[];
}

/** One case with its notes and its history. */
export async function getCase(deps: { db: Database }, caseId: string): Promise<CaseWithRecords> {
  const found = isUuid(caseId) ? await findCase(deps.db, caseId) : undefined;
  if (!found) throw new AppError('NOT_FOUND', CASE_MESSAGES.notFound);
  const [notes, audit] = await Promise.all([findCaseNotes(deps.db, caseId), findCaseAudit(deps.db, caseId)]);
  return { case: found, notes, audit };
}
