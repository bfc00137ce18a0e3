import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { CaseDetail } from '@offzero/shared/api/cases';
import { errorMessage } from '../../../lib/api-client';
import { ButtonLink } from '../../../components/ui/button';
import { ArrowLeftIcon } from '../../../components/ui/icons';
import { PageLoadError, PageSkeleton } from '../../../components/ui/page';
import { useMonitoringCase } from '../api/get-case';
import { adminPaths } from '../admin-paths';
import { AdminPageHeader } from '../components/blocks';
import { formatDateTime } from '../format';
import { CasePill, RuleLabel } from './case-badges';
import { CloseDialog } from './case-close-dialog';
import { EvidencePanel } from './case-evidence-panel';
import { CaseHistoryPanel } from './case-history-panel';
import { NoteDialog } from './case-note-dialog';
import { CaseNotesPanel } from './case-notes-panel';
import { CaseReviewPanel, type CaseDialog } from './case-review-panel';

/** One monitoring case: what matched, the notes, the history, and the review. */
export default function CasePage() {
  const { caseId = '' } = useParams();
  const found = useMonitoringCase(caseId);
  return (
    <div className="space-y-5">
      <title>Monitoring case — OffZero back office</title>
      <ButtonLink to={adminPaths.cases} variant="ghost" size="sm" className="-ml-3">
        <ArrowLeftIcon className="size-4" />
        All cases
      </ButtonLink>
      {found.isPending ? (
        <PageSkeleton blocks={3} />
      ) : found.isError ? (
        <PageLoadError message={errorMessage(found.error)} onRetry={() => void found.refetch()} />
      ) : (
        <CaseView monitoringCase={found.data} />
      )}
    </div>
  );
}

function CaseView({ monitoringCase: c }: { monitoringCase: CaseDetail }) {
  const [dialog, setDialog] = useState<CaseDialog | null>(null);
  return (
    <>
      <AdminPageHeader
        eyebrow={
          <span className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
            Monitoring case
          </span>
        }
        title={
          <span className="flex flex-wrap items-center gap-3">
            <RuleLabel rule={c.rule} />
            <CasePill status={c.status} />
          </span>
        }
        description={
          <>
            <Link to={adminPaths.customer(c.userId)} className="break-all text-brand-700 hover:underline">
              {c.customerEmail ?? c.userId}
            </Link>
            <span> · opened {formatDateTime(c.openedAt)}</span>
          </>
        }
      />
      <div className="grid grid-cols-1 items-start gap-5 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="min-w-0 space-y-5">
          <EvidencePanel monitoringCase={c} />
          <CaseNotesPanel monitoringCase={c} />
        </div>
        <div className="space-y-5">
          <CaseReviewPanel monitoringCase={c} onOpen={setDialog} />
          <CaseHistoryPanel monitoringCase={c} />
        </div>
      </div>
      {dialog?.kind === 'close' && <CloseDialog monitoringCase={c} onClose={() => setDialog(null)} />}
      {dialog && dialog.kind !== 'close' && (
        <NoteDialog
          monitoringCase={c}
          status={dialog.kind === 'review' ? 'reviewing' : dialog.kind === 'reopen' ? 'open' : c.status}
          onClose={() => setDialog(null)}
        />
      )}
    </>
  );
}
