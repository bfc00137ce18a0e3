import { useMemo, useState } from 'react';
import { toast } from '../../../lib/toast';
import { useSearchParams } from 'react-router';
import { centsToUsdNumber } from '@offzero/shared/money/money';
import { errorMessage } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';
import { Button } from '../../../components/ui/button';
import { PageLoadError } from '../../../components/ui/page';
import { AlertIcon, DownloadIcon } from '../../../components/ui/icons';
import { download1099Da, useForm1099Da } from '../api/form-1099-da';
import { AdminPageHeader, EmptyState, TableSkeleton } from '../components/blocks';
import { DataTable } from '../components/data-table';
import { FilterSelect } from '../components/filter-fields';
import { usd } from '../format';
import { cents, missingW9, SALE_COLUMNS, type SaleRow } from './form-1099-da-columns';
import { parseCsv } from './parse-csv';

/** Rows drawn on the page; the file itself always has every sell of the year. */
const SHOWN_ROWS = 500;
const FIRST_YEAR = 2009;

function yearsToPick(): number[] {
  const now = new Date().getUTCFullYear();
  return Array.from({ length: Math.min(10, now - FIRST_YEAR + 1) }, (_, i) => now - i);
}

/**
 * Form 1099-DA (docs/design.md): every completed sell of a year with the seller's W-9, as the operator
 * files it. Sellers without a W-9 come first and are marked: they must be chased (or backup withholding
 * applied) before filing. The TIN is only ever shown masked. Opening or downloading the file is audited
 * by the server.
 */
export default function Form1099DaPage() {
  const years = yearsToPick();
  const [params, setParams] = useSearchParams();
  const asked = Number(params.get('year'));
  const year = years.includes(asked) ? asked : (years[0] ?? new Date().getUTCFullYear());
  const file = useForm1099Da(year);
  const [downloading, setDownloading] = useState(false);

  const rows = useMemo(() => (file.data ? (parseCsv(file.data).records as SaleRow[]) : []), [file.data]);
  const missing = rows.filter(missingW9).length;
  const proceeds = rows.reduce((sum, row) => sum + cents(row['Gross Proceeds (USD)']), 0n);

  const download = async () => {
    setDownloading(true);
    try {
      const { blob, filename } = await download1099Da(year);
      saveBlob(blob, filename ?? `offzero-1099-da-${year}.csv`);
    } catch (error) {
      toast.error(errorMessage(error, 'Could not download the file. Please try again.'));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div className="space-y-5">
      <title>Form 1099-DA — OffZero back office</title>
      <AdminPageHeader
        title="Form 1099-DA"
        description="Every completed sell of the year with the seller's W-9, for the broker's 1099-DA filing. Cost basis is reported as noncovered. Opening or downloading this file is recorded in the audit log."
        actions={
          <Button
            onClick={() => void download()}
            loading={downloading}
            disabled={!file.data}
            className="w-full sm:w-auto"
          >
            <DownloadIcon className="size-4" />
            Download CSV
          </Button>
        }
      />

      <section
        aria-label="Year and totals"
        className="grid grid-cols-2 gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/80 sm:grid-cols-4 sm:p-5"
      >
        <FilterSelect
          label="Tax year"
          value={String(year)}
          onChange={(event) => setParams({ year: event.target.value }, { replace: true })}
          className="col-span-2 sm:col-span-1"
        >
          {years.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </FilterSelect>
        <Figure label="Sells" value={file.data ? String(rows.length) : '…'} />
        <Figure
          label="Without a W-9"
          value={file.data ? String(missing) : '…'}
          tone={missing > 0 ? 'text-red-700' : undefined}
        />
        <Figure
          label="Gross proceeds"
          value={file.data ? usd(centsToUsdNumber(proceeds)) : '…'}
          className="col-span-2 sm:col-span-1"
        />
      </section>

      {missing > 0 && (
        <p
          role="note"
          className="flex items-start gap-2 rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-red-600/15"
        >
          <AlertIcon className="mt-0.5 size-4 shrink-0" />
          <span>
            {missing} sell{missing === 1 ? '' : 's'} of {year} {missing === 1 ? 'has' : 'have'} no Form W-9 on
            file. They are listed first: collect the W-9 before filing, or apply backup withholding.
          </span>
        </p>
      )}

      {file.isError ? (
        <PageLoadError message={errorMessage(file.error)} onRetry={() => void file.refetch()} />
      ) : (
        <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80">
          {file.isPending ? (
            <TableSkeleton label="Loading the 1099-DA file" />
          ) : rows.length === 0 ? (
            <EmptyState title={`No completed sells in ${year}.`}>
              The downloaded file has the column headers only.
            </EmptyState>
          ) : (
            <>
              <DataTable
                columns={SALE_COLUMNS}
                rows={rows.slice(0, SHOWN_ROWS)}
                rowKey={(row) => row['Order ID']}
                label={`Form 1099-DA sells of ${year}`}
                rowTestId="form-1099-da-row"
                rowClassName={(row) => (missingW9(row) ? 'bg-red-50/40' : '')}
              />
              {rows.length > SHOWN_ROWS && (
                <p className="border-t border-slate-100 px-4 py-3 text-sm text-slate-600 sm:px-5">
                  Showing the first {SHOWN_ROWS} of {rows.length} sells. The CSV has all of them.
                </p>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}

function Figure({
  label,
  value,
  tone,
  className,
}: {
  label: string;
  value: string;
  tone?: string;
  className?: string;
}) {
  return (
    <div className={`min-w-0 ${className ?? ''}`}>
      <p className="text-xs font-medium text-slate-500">{label}</p>
      <p className={`mt-1.5 text-lg font-semibold tabular-nums ${tone ?? 'text-ink-900'}`}>{value}</p>
    </div>
  );
}
