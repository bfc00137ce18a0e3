import type { CaseDetail } from '@offzero/shared/api/cases';
import { Button } from '../../../components/ui/button';
import { Details, Panel } from '../components/blocks';
import { formatDate, formatDateTime } from '../format';
import { CasePill } from './case-badges';
import { CASE_OUTCOME_LABEL, CASE_RULE_HINT } from './case-words';

export type CaseDialog = { kind: 'review' } | { kind: 'note' } | { kind: 'reopen' } | { kind: 'close' };

/** A closed case's outcome, or the review steps an open one allows. */
export function CaseReviewPanel({
  monitoringCase: c,
  onOpen,
}: {
  monitoringCase: CaseDetail;
  onOpen: (dialog: CaseDialog) => void;
}) {
  return (
    <Panel title="Review" testId="case-review">
      {c.status === 'closed' ? (
        <Details
          rows={[
            ['Status', <CasePill key="s" status={c.status} />],
            ['Outcome', c.outcome ? CASE_OUTCOME_LABEL[c.outcome] : null],
            ['SAR filed on', c.sarFiledAt ? formatDate(`${c.sarFiledAt}T12:00:00Z`) : null],
            [
              'SAR reference',
              c.sarReference ? (
                <span key="r" className="font-mono">
                  {c.sarReference}
                </span>
              ) : null,
            ],
            ['Closed', formatDateTime(c.closedAt)],
          ]}
        />
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-slate-600">{CASE_RULE_HINT[c.rule]}</p>
          <div className="flex flex-col gap-2 sm:flex-row lg:flex-col">
            {c.status === 'open' ? (
              <Button fullWidth onClick={() => onOpen({ kind: 'review' })}>
                Start review
              </Button>
            ) : (
              <Button fullWidth variant="outline" onClick={() => onOpen({ kind: 'reopen' })}>
                Back to open
              </Button>
            )}
            <Button fullWidth variant="outline" onClick={() => onOpen({ kind: 'note' })}>
              Add a note
            </Button>
            <Button fullWidth variant="secondary" onClick={() => onOpen({ kind: 'close' })}>
              Close case
            </Button>
          </div>
        </div>
      )}
    </Panel>
  );
}
