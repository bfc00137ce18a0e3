import type { CaseDetail } from '@offzero/shared/api/cases';
import { Panel } from '../components/blocks';
import { formatDateTime } from '../format';

/** The reviewers' notes on the case. */
export function CaseNotesPanel({ monitoringCase: c }: { monitoringCase: CaseDetail }) {
  return (
    <Panel title={`Notes (${c.notes.length})`} testId="case-notes">
      {c.notes.length === 0 ? (
        <p className="text-sm text-slate-500">No notes yet. Every review step adds one.</p>
      ) : (
        <ol className="space-y-3">
          {c.notes.map((note) => (
            <li key={note.id} className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200/70">
              <p className="text-sm whitespace-pre-wrap break-words text-ink-900">{note.note}</p>
              <p className="mt-1 text-xs text-slate-500">
                {note.admin} · {formatDateTime(note.at)}
              </p>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
