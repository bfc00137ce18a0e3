import { useState } from 'react';
import { toast } from '../../lib/toast';
import type { TaxExportFormat } from '@offzero/shared/api/tax';
import { errorMessage } from '../../lib/api-client';
import { useTaxDetails } from '../../domain/tax-details';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page';
import { SelectField } from '../../components/ui/select-field';
import { downloadTaxExport, downloadTaxStatement } from './api/tax-files';
import { TaxDetailsModal } from './components/tax-details-card';

/** Years a customer can pick: this one and the nine before it (OffZero keeps every order). */
function recentYears(): number[] {
  const now = new Date().getUTCFullYear();
  return Array.from({ length: 10 }, (_, i) => now - i);
}

const EXPORTS: { format: TaxExportFormat; title: string; description: string }[] = [
  {
    format: 'offzero',
    title: 'OffZero',
    description: 'Every figure of every order: amounts, rate, fees, method, addresses, transaction ids.',
  },
  {
    format: 'koinly',
    title: 'Koinly',
    description: "Koinly's universal import format. Import it as a custom CSV in Koinly.",
  },
  {
    format: 'cointracker',
    title: 'CoinTracker',
    description: "CoinTracker's CSV import format. Add it under Exchanges & Wallets → Import CSV.",
  },
];

/**
 * The Tax center (docs/design.md): a year's completed orders as CSV for the customer's tax software,
 * the year's statement as PDF, and the customer's W-9 status. Buys count as acquisitions at their cost
 * including fees; sells as disposals at their proceeds after fees.
 */
export default function TaxCenterPage() {
  const years = recentYears();
  const [year, setYear] = useState(years[0] ?? new Date().getUTCFullYear());
  const [busy, setBusy] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const w9 = useTaxDetails();

  async function run(key: string, download: () => Promise<void>) {
    if (busy) return;
    setBusy(key);
    try {
      await download();
      toast.success('Downloaded.');
    } catch (error) {
      toast.error(errorMessage(error, 'Could not download the file. Please try again.'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
      <title>Tax center — OffZero</title>
      <PageHeader
        title="Tax center"
        description="Download your completed orders for your tax software, and your annual statement."
      />

      <section
        aria-label="Year"
        className="mt-6 flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200/80 sm:flex-row sm:items-end sm:justify-between sm:p-6"
      >
        <SelectField
          label="Tax year"
          className="sm:w-48"
          value={year}
          onChange={(event) => setYear(Number(event.target.value))}
        >
          {years.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </SelectField>
        <p className="text-sm text-slate-500 sm:max-w-sm sm:text-right">
          Completed orders from 1 January to 31 December {year}, in UTC. Buys are acquisitions at their cost
          including fees; sells are disposals at their proceeds after fees.
        </p>
      </section>

      <section aria-label="CSV exports" className="mt-5">
        <h2 className="text-base font-semibold text-ink-900">CSV exports</h2>
        <ul className="mt-3 grid grid-cols-1 gap-4 md:grid-cols-3">
          {EXPORTS.map((item) => (
            <li
              key={item.format}
              className="flex flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200/80"
            >
              <h3 className="font-semibold text-ink-900">{item.title}</h3>
              <p className="mt-1 flex-1 text-sm text-slate-500">{item.description}</p>
              <Button
                className="mt-4"
                variant="outline"
                fullWidth
                loading={busy === item.format}
                disabled={busy !== null && busy !== item.format}
                aria-label={`Download ${item.title} CSV for ${year}`}
                onClick={() => void run(item.format, () => downloadTaxExport(year, item.format))}
              >
                Download CSV
              </Button>
            </li>
          ))}
        </ul>
      </section>

      <section
        aria-label="Annual statement"
        className="mt-5 flex flex-col gap-4 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200/80 sm:flex-row sm:items-center sm:justify-between sm:p-6"
      >
        <div>
          <h2 className="text-base font-semibold text-ink-900">Annual statement {year}</h2>
          <p className="mt-1 text-sm text-slate-500">
            A PDF with what you bought and sold, the fees you paid and every order of the year.
          </p>
        </div>
        <Button
          loading={busy === 'statement'}
          disabled={busy !== null && busy !== 'statement'}
          onClick={() => void run('statement', () => downloadTaxStatement(year))}
          className="shrink-0"
        >
          Download statement (PDF)
        </Button>
      </section>

      <W9Status details={w9.data} known={w9.isSuccess} onEdit={() => setEditing(true)} />
      <TaxDetailsModal open={editing} onClose={() => setEditing(false)} current={w9.data ?? null} />
    </div>
  );
}

/** Whether the customer's W-9 is on file, and the way to add or update it. */
function W9Status({
  details,
  known,
  onEdit,
}: {
  details: ReturnType<typeof useTaxDetails>['data'];
  /** The answer has arrived (a missing W-9 is said only then). */
  known: boolean;
  onEdit: () => void;
}) {
  return (
    <section
      aria-label="Tax details"
      className="mt-5 flex flex-col gap-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200/80 sm:flex-row sm:items-center sm:justify-between sm:p-6"
    >
      <div className="min-w-0">
        <h2 className="flex flex-wrap items-center gap-2 text-base font-semibold text-ink-900">
          Form W-9
          {details ? (
            <Badge tone="success">On file</Badge>
          ) : known ? (
            <Badge tone="warning">Not added yet</Badge>
          ) : null}
        </h2>
        <p className="mt-1 text-sm text-slate-500">
          {details
            ? `${details.legalName} · ${details.tinType} ${details.tin}`
            : 'We report sales to the IRS on Form 1099-DA and need your W-9 before your first sale.'}
        </p>
      </div>
      <Button variant="outline" className="shrink-0" onClick={onEdit}>
        {details ? 'Update W-9' : 'Add W-9'}
      </Button>
    </section>
  );
}
