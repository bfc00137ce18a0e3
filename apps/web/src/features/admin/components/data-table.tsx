import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { td, th } from './blocks';

export interface Column<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Extra classes for this column's cells (alignment, width, number style). */
  className?: string;
  /** Shown as the card's heading on phones instead of as a labelled line. */
  primary?: boolean;
  /** Left out of the phone card (the heading already says it, or it is not worth the space). */
  hideOnCard?: boolean;
}

/**
 * A dense table from 768 px up, and one card per row below that, from the same column list. With
 * `rowHref` a click anywhere on a desktop row opens the row's page (the explicit link in its first
 * cell stays the keyboard and screen-reader way in).
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  rowHref,
  label,
  testId,
  rowTestId,
  rowClassName,
}: {
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  rowHref?: (row: Row) => string;
  /** The table's accessible name. */
  label: string;
  testId?: string;
  rowTestId?: string;
  rowClassName?: (row: Row) => string;
}) {
  const navigate = useNavigate();
  const primary = columns.filter((column) => column.primary);
  const rest = columns.filter((column) => !column.primary && !column.hideOnCard);
  return (
    <div data-testid={testId}>
      <div className="hidden overflow-x-auto md:block">
        <table aria-label={label} className="w-full text-sm">
          <thead className="border-b border-slate-100 bg-slate-50/80">
            <tr>
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  className={`${th} ${column.className?.includes('text-right') ? '' : 'text-left'} ${column.className ?? ''}`}
                >
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => {
              const href = rowHref?.(row);
              return (
                <tr
                  key={rowKey(row)}
                  data-testid={rowTestId}
                  data-row-id={rowKey(row)}
                  onClick={
                    href
                      ? (event) => {
                          // Links, buttons and selected text keep their own behaviour.
                          const target = event.target as HTMLElement;
                          if (target.closest('a,button,input,select,textarea')) return;
                          if (window.getSelection()?.toString()) return;
                          void navigate(href);
                        }
                      : undefined
                  }
                  className={`${href ? 'cursor-pointer' : ''} hover:bg-slate-50/80 ${rowClassName?.(row) ?? ''}`}
                >
                  {columns.map((column) => (
                    <td key={column.key} className={`${td} ${column.className ?? ''}`}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <ul aria-label={label} className="divide-y divide-slate-100 md:hidden">
        {rows.map((row) => (
          <li
            key={rowKey(row)}
            data-testid={rowTestId ? `${rowTestId}-card` : undefined}
            className={`px-4 py-3.5 ${rowClassName?.(row) ?? ''}`}
          >
            {primary.length > 0 && (
              <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1.5">
                {primary.map((column) => (
                  <div key={column.key} className="min-w-0">
                    {column.cell(row)}
                  </div>
                ))}
              </div>
            )}
            {rest.length > 0 && (
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                {rest.map((column) => (
                  <div key={column.key} className="contents">
                    <dt className="text-xs leading-5 text-slate-500">{column.header}</dt>
                    <dd className="min-w-0 text-right break-words text-ink-900">{column.cell(row)}</dd>
                  </div>
                ))}
              </dl>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
