import { CASE_MESSAGES, type CaseStatus, type CaseUpdateRequest } from '@offzero/shared/api/cases';
import { recordAdminAction } from '../../admin/admin-audit.repository';
import type { SignedInUser } from '../../auth/sessions';
import type { Database } from '../../db/database';
import type { MonitoringCaseRow } from '../../db/schema';
import { AppError } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { insertCaseNote, lockCase, updateCase } from '../cases.repository';

/** The audit action for a move from one status to another (the same status: a note only). */
function actionOf(from: CaseStatus, to: CaseStatus): string {
  if (to === 'closed') return 'case.close';
  if (from === to) return 'case.note';
  return to === 'reviewing' ? 'case.review' : 'case.reopen';
}

/**
 * A reviewer moves a case (open ↔ reviewing, or closed with an outcome) or adds a note. The note, the
 * change and its audit entry commit together. A closed case stays as it was closed.
 */
export async function updateMonitoringCase(
  deps: { db: Database; now: () => Date },
  request: { staff: SignedInUser; caseId: string; change: CaseUpdateRequest },
): Promise<MonitoringCaseRow> {
  const { staff, caseId, change } = request;
  if (!isUuid(caseId)) throw new AppError('NOT_FOUND', CASE_MESSAGES.notFound);
  const now = deps.now();
  // The filing day is a calendar day; "today" is the server's UTC day.
  if (change.sarFiledAt && change.sarFiledAt > now.toISOString().slice(0, 10)) {
    throw new AppError('BAD_REQUEST', CASE_MESSAGES.sarDateInFuture);
  }
  return deps.db.transaction(async (tx) => {
    const before = await lockCase(tx, caseId);
    if (!before) throw new AppError('NOT_FOUND', CASE_MESSAGES.notFound);
    if (before.status === 'closed') throw new AppError('CONFLICT', CASE_MESSAGES.closed);
    const closing = change.status === 'closed';
    const after = await updateCase(tx, caseId, {
      status: change.status,
      outcome: closing ? (change.outcome ?? null) : null,
      sarFiledAt: closing ? (change.sarFiledAt ?? null) : null,
      sarReference: closing ? (change.sarReference ?? null) : null,
      closedAt: closing ? now : null,
      now,
    });
    await insertCaseNote(tx, {
      caseId,
      adminUserId: staff.user.id,
      adminEmail: staff.user.email,
      note: change.note,
      now,
    });
    const snapshot = (row: MonitoringCaseRow) => ({
      status: row.status,
      outcome: row.outcome,
      sarFiledAt: row.sarFiledAt,
      sarReference: row.sarReference,
    });
    await recordAdminAction(tx, staff, {
      action: actionOf(before.status, after.status),
      targetType: 'case',
      targetId: caseId,
      before: snapshot(before),
      after: snapshot(after),
      note: change.note,
    });
    return after;
  });
}
