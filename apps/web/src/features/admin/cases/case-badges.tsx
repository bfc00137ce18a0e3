import type { CaseRule, CaseStatus } from '@offzero/shared/api/cases';
import { Pill } from '../components/badges';
import { CASE_RULE_HINT, CASE_RULE_LABEL, CASE_STATUS_LABEL, CASE_STATUS_TONE } from './case-words';

export function CasePill({ status }: { status: CaseStatus }) {
  return (
    <span data-testid="case-status" data-status={status}>
      <Pill tone={CASE_STATUS_TONE[status]}>{CASE_STATUS_LABEL[status]}</Pill>
    </span>
  );
}

/** The rule's name, with what it looks for as a tooltip. */
export function RuleLabel({ rule }: { rule: CaseRule }) {
  return <span title={CASE_RULE_HINT[rule]}>{CASE_RULE_LABEL[rule]}</span>;
}
