import type { CaseDetail, CaseHistoryEntry, CaseStatus, MonitoringCase } from '@offzero/shared/api/cases';
import type { AdminActionRow } from '../db/schema';
import type { CaseWithEmail } from './cases.repository';
import type { CaseWithRecords } from './use-cases/get-case';

export function toCase(row: CaseWithEmail): MonitoringCase {
  return {
    id: row.id,
    userId: row.userId,
    customerEmail: row.customerEmail,
    rule: row.rule,
    status: row.status,
    openedAt: row.openedAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    evidence: row.evidence,
    outcome: row.outcome,
    closedAt: row.closedAt?.toISOString() ?? null,
    sarFiledAt: row.sarFiledAt,
    sarReference: row.sarReference,
  };
}

const statusIn = (value: Record<string, unknown> | null): CaseStatus | null => {
  const status = value?.status;
  return status === 'open' || status === 'reviewing' || status === 'closed' ? status : null;
};

function toHistoryEntry(entry: AdminActionRow): CaseHistoryEntry {
  return {
    at: entry.createdAt.toISOString(),
    actor: entry.adminEmail,
    action: entry.action,
    fromStatus: statusIn(entry.before),
    toStatus: statusIn(entry.after) ?? 'open',
    note: entry.note,
  };
}

/** The case with its notes, and its history: opened by the rule, then every audited change. */
export function toCaseDetail(found: CaseWithRecords): CaseDetail {
  const opened: CaseHistoryEntry = {
    at: found.case.openedAt.toISOString(),
    actor: 'monitoring',
    action: 'case.open',
    fromStatus: null,
    toStatus: 'open',
    note: null,
  };
  return {
    ...toCase(found.case),
    notes: found.notes.map((note) => ({
      id: note.id,
      at: note.createdAt.toISOString(),
      admin: note.adminEmail,
      note: note.note,
    })),
    history: [opened, ...found.audit.map(toHistoryEntry)],
  };
}
