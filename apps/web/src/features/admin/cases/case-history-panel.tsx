import type { CaseDetail } from '@offzero/shared/api/cases';
import { Panel } from '../components/blocks';
import { formatDateTime } from '../format';
import { CASE_STATUS_LABEL } from './case-words';

/** Every change of the case's status, and every note, by whom and when. */
export function CaseHistoryPanel({ monitoringCase: c }: { monitoringCase: CaseDetail }) {
  return (
    <Panel title="History" testId="case-history">
      <ol className="space-y-3">
        {c.history.map((entry, index) => (
          <li key={index} className="text-sm">
            <p className="font-medium text-ink-900">
              {entry.fromStatus === null
                ? 'Opened by the monitoring rules'
                : entry.fromStatus === entry.toStatus
                  ? 'Note added'
                  : `${CASE_STATUS_LABEL[entry.fromStatus]} → ${CASE_STATUS_LABEL[entry.toStatus]}`}
            </p>
            <p className="text-xs text-slate-500">
              {entry.actor === 'monitoring' ? 'Monitoring' : entry.actor} · {formatDateTime(entry.at)}
            </p>
          </li>
        ))}
      </ol>
    </Panel>
  );
}
