import type { ReactNode } from 'react';

export interface DetailRow {
  label: ReactNode;
  value: ReactNode;
  /** Emphasised (the total). */
  strong?: boolean;
}

/** Label and value pairs, one per line, values right-aligned (the confirmation's figures). */
export function DetailList({ rows, className }: { rows: (DetailRow | null | false)[]; className?: string }) {
  return (
    <dl
      className={`divide-y divide-slate-100 rounded-2xl bg-slate-50 px-4 ring-1 ring-slate-200/70 ${className ?? ''}`}
    >
      {rows
        .filter((row): row is DetailRow => Boolean(row))
        .map((row, index) => (
          <div key={index} className="flex items-start justify-between gap-4 py-2.5 text-sm">
            <dt className="shrink-0 text-slate-500">{row.label}</dt>
            <dd
              className={`min-w-0 text-right break-words tabular-nums ${
                row.strong ? 'font-semibold text-ink-900' : 'font-medium text-slate-800'
              }`}
            >
              {row.value}
            </dd>
          </div>
        ))}
    </dl>
  );
}
