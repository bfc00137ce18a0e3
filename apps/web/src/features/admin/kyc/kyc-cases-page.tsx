import { Link, useSearchParams } from 'react-router';
import {
  KYC_DOCUMENT_LABEL,
  KYC_STATUS_LABEL,
  kycStatusSchema,
  type KycStatusValue,
} from '@offzero/shared/api/kyc';
import { errorMessage } from '../../../lib/api-client';
import { PageLoadError } from '../../../components/ui/page';
import { useKycCases } from '../api/list-kyc-cases';
import type { KycCase } from '@offzero/shared/api/admin';
import { adminPaths } from '../admin-paths';
import { AdminPageHeader, EmptyState, TableSkeleton } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { KycPill } from '../components/badges';
import { formatAge, formatDate, formatDateTime, isOverdue } from '../format';

export function documentLabel(type: string | null): string {
  if (!type) return '—';
  return KYC_DOCUMENT_LABEL[type as keyof typeof KYC_DOCUMENT_LABEL] ?? type;
}

const TABS: KycStatusValue[] = ['YELLOW', 'GREEN', 'RED'];

/** The columns: a case under review shows how long it has waited, a decided one who decided it. */
function kycColumns(status: KycStatusValue): Column<KycCase>[] {
  return [
    {
      key: 'customer',
      header: 'Customer',
      primary: true,
      cell: (c) => (
        <Link
          to={adminPaths.kycCase(c.userId)}
          className="block font-semibold break-all text-brand-700 hover:underline md:max-w-64 md:truncate md:break-normal"
          title={c.email ?? undefined}
        >
          {c.email ?? c.userId}
        </Link>
      ),
    },
    { key: 'status', header: 'Status', primary: true, cell: (c) => <KycPill status={c.status} /> },
    {
      key: 'name',
      header: 'Legal name',
      cell: (c) => <span className="md:whitespace-nowrap">{c.legalName ?? '—'}</span>,
    },
    {
      key: 'dob',
      header: 'Born',
      cell: (c) => (
        <span className="whitespace-nowrap">
          {c.dateOfBirth ? formatDate(`${c.dateOfBirth}T12:00:00Z`) : '—'}
        </span>
      ),
    },
    { key: 'country', header: 'Country', cell: (c) => c.country ?? '—' },
    { key: 'doc', header: 'Document', cell: (c) => documentLabel(c.documentType) },
    { key: 'provider', header: 'Provider', cell: (c) => <span className="capitalize">{c.provider}</span> },
    status === 'YELLOW'
      ? {
          key: 'age',
          header: 'Waiting',
          className: 'text-right',
          cell: (c) => (
            <span
              className={`text-xs tabular-nums ${isOverdue(c.submittedAt) ? 'font-semibold text-red-600' : 'text-slate-600'}`}
            >
              {formatAge(c.submittedAt)}
            </span>
          ),
        }
      : {
          key: 'decided',
          header: 'Decided',
          cell: (c) => (
            <span className="text-xs text-slate-600">
              {formatDateTime(c.decidedAt)}
              {c.decidedBy && <span className="block text-slate-500">{c.decidedBy}</span>}
            </span>
          ),
        },
  ];
}

/** Identity checks by state: the ones under review first (oldest first), then the decided ones. */
export default function KycCasesPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('status');
  const status = kycStatusSchema.safeParse(requested).success ? (requested as KycStatusValue) : 'YELLOW';
  const cases = useKycCases(status);

  return (
    <div className="space-y-5">
      <title>KYC review — OffZero back office</title>
      <AdminPageHeader
        title="KYC review"
        description="Identity documents from the demo verification form. Open a case to see the document and decide."
      />
      <div
        role="tablist"
        aria-label="Case status"
        className="inline-flex rounded-xl bg-white p-1 shadow-sm ring-1 ring-slate-200/80"
      >
        {TABS.map((tab) => (
          <button
            key={tab}
            type="button"
            role="tab"
            aria-selected={tab === status}
            onClick={() => setParams(tab === 'YELLOW' ? {} : { status: tab }, { replace: true })}
            className={`rounded-lg px-3.5 py-1.5 text-sm font-medium transition-colors ${
              tab === status
                ? 'bg-ink-900 text-white'
                : 'text-slate-600 hover:bg-slate-100 hover:text-ink-900'
            }`}
          >
            {KYC_STATUS_LABEL[tab]}
            {tab === status && cases.data && (
              <span className="ml-1.5 text-xs opacity-70">{cases.data.cases.length}</span>
            )}
          </button>
        ))}
      </div>
      {cases.isError ? (
        <PageLoadError message={errorMessage(cases.error)} onRetry={() => void cases.refetch()} />
      ) : (
        <div
          role="tabpanel"
          className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80"
        >
          {cases.isPending ? (
            <TableSkeleton label="Loading cases" />
          ) : cases.data.cases.length === 0 ? (
            <EmptyState
              title={status === 'YELLOW' ? 'No case is waiting for review.' : 'No cases here yet.'}
            />
          ) : (
            <DataTable
              columns={kycColumns(status)}
              rows={cases.data.cases}
              rowKey={(c) => c.userId}
              rowHref={(c) => adminPaths.kycCase(c.userId)}
              label="KYC cases"
              rowTestId="kyc-row"
            />
          )}
        </div>
      )}
    </div>
  );
}
