import { Link } from 'react-router';
import type { MonitoringCase } from '@offzero/shared/api/cases';
import { adminPaths } from '../admin-paths';
import { CasePill, RuleLabel } from '../cases/case-badges';
import { DataTable, type Column } from '../components/data-table';
import { formatAge, isOverdue } from '../format';

export function CaseQueueTable({ rows, now }: { rows: MonitoringCase[]; now: number }) {
  const columns: Column<MonitoringCase>[] = [
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
    { key: 'status', header: 'Status', cell: (c) => <CasePill status={c.status} /> },
    {
      key: 'customer',
      header: 'Customer',
      cell: (c) => (
        <span className="block break-all md:max-w-xs md:truncate md:break-normal">
          {c.customerEmail ?? c.userId}
        </span>
      ),
    },
    {
      key: 'age',
      header: 'Waiting',
      primary: true,
      className: 'text-right',
      cell: (c) => (
        <span
          className={`text-xs tabular-nums ${isOverdue(c.openedAt, now) ? 'font-semibold text-red-600' : 'text-slate-600'}`}
        >
          {formatAge(c.openedAt, now)}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(c) => c.id}
      rowHref={(c) => adminPaths.case(c.id)}
      label="Monitoring cases"
      rowTestId="queue-row"
    />
  );
}
