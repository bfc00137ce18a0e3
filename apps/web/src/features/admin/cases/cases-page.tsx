import { Link, useSearchParams } from 'react-router';
import {
  CASE_RULES,
  CASE_STATUSES,
  caseRuleSchema,
  caseStatusSchema,
  type MonitoringCase,
} from '@offzero/shared/api/cases';
import { errorMessage } from '../../../lib/api-client';
import { PageLoadError } from '../../../components/ui/page';
import { SearchIcon } from '../../../components/ui/icons';
import { useMonitoringCases } from '../api/list-cases';
import { adminPaths } from '../admin-paths';
import { AdminPageHeader, EmptyState, TableSkeleton } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { FilterInput, FilterSelect } from '../components/filter-fields';
import { formatAge, formatDateTime } from '../format';
import { CasePill, RuleLabel } from './case-badges';
import { CASE_RULE_LABEL, CASE_STATUS_LABEL } from './case-words';

/** The cases table: each rule links to its case. */
const COLUMNS: Column<MonitoringCase>[] = [
  {
    key: 'rule',
    header: 'Rule',
    primary: true,
    cell: (c) => (
      <Link to={adminPaths.case(c.id)} className="font-semibold text-brand-700 hover:underline">
        <RuleLabel rule={c.rule} />
      </Link>
    ),
  },
  { key: 'status', header: 'Status', primary: true, cell: (c) => <CasePill status={c.status} /> },
  {
    key: 'customer',
    header: 'Customer',
    cell: (c) => (
      <span
        className="block break-all md:max-w-64 md:truncate md:break-normal"
        title={c.customerEmail ?? c.userId}
      >
        {c.customerEmail ?? c.userId}
      </span>
    ),
  },
  {
    key: 'about',
    header: 'What matched',
    cell: (c) => (
      <span className="line-clamp-2 text-xs text-slate-600">
        {typeof c.evidence.description === 'string' ? c.evidence.description : '—'}
      </span>
    ),
    className: 'max-w-80',
  },
  {
    key: 'opened',
    header: 'Opened',
    className: 'text-right',
    cell: (c) => (
      <span className="text-xs whitespace-nowrap text-slate-600" title={formatDateTime(c.openedAt)}>
        {formatAge(c.openedAt)} ago
      </span>
    ),
  },
];

/** Monitoring cases, newest first, filtered by status, rule and customer (kept in the address). */
export default function CasesPage() {
  const [params, setParams] = useSearchParams();
  const status = caseStatusSchema.safeParse(params.get('status')).data;
  const rule = caseRuleSchema.safeParse(params.get('rule')).data;
  const userId = params.get('userId') ?? '';
  const cases = useMonitoringCases({ status, rule, userId });

  const update = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  return (
    <div className="space-y-5">
      <title>Monitoring cases — OffZero back office</title>
      <AdminPageHeader
        title="Monitoring cases"
        description="Patterns the monitoring rules found in orders and deposits. The customer is never told."
      />
      <form
        role="search"
        aria-label="Filter cases"
        onSubmit={(event) => event.preventDefault()}
        className="grid grid-cols-1 gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/80 sm:grid-cols-3"
      >
        <FilterSelect label="Status" value={status ?? ''} onChange={(e) => update('status', e.target.value)}>
          <option value="">Any status</option>
          {CASE_STATUSES.map((value) => (
            <option key={value} value={value}>
              {CASE_STATUS_LABEL[value]}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect label="Rule" value={rule ?? ''} onChange={(e) => update('rule', e.target.value)}>
          <option value="">Any rule</option>
          {CASE_RULES.map((value) => (
            <option key={value} value={value}>
              {CASE_RULE_LABEL[value]}
            </option>
          ))}
        </FilterSelect>
        <FilterInput
          label="Customer id"
          icon={<SearchIcon className="size-4" />}
          value={userId}
          placeholder="Customer id"
          maxLength={100}
          onChange={(e) => update('userId', e.target.value.trim())}
        />
      </form>
      {cases.isError ? (
        <PageLoadError message={errorMessage(cases.error)} onRetry={() => void cases.refetch()} />
      ) : (
        <div className="overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80">
          {cases.isPending ? (
            <TableSkeleton label="Loading cases" />
          ) : cases.data.cases.length === 0 ? (
            <EmptyState title="No case matches these filters." />
          ) : (
            <DataTable
              columns={COLUMNS}
              rows={cases.data.cases}
              rowKey={(c) => c.id}
              rowHref={(c) => adminPaths.case(c.id)}
              label="Monitoring cases"
              rowTestId="case-row"
            />
          )}
        </div>
      )}
    </div>
  );
}
