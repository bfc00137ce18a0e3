import { Link } from 'react-router';
import type { KycCase } from '@offzero/shared/api/admin';
import { KYC_DOCUMENT_LABEL } from '@offzero/shared/api/kyc';
import { adminPaths } from '../admin-paths';
import { DataTable, type Column } from '../components/data-table';
import { formatAge, isOverdue } from '../format';

export function KycQueueTable({ rows, now }: { rows: KycCase[]; now: number }) {
  const columns: Column<KycCase>[] = [
    {
      key: 'customer',
      header: 'Customer',
      primary: true,
      cell: (c) => (
        <Link to={adminPaths.kycCase(c.userId)} className="font-semibold text-brand-700 hover:underline">
          {c.email ?? c.userId}
        </Link>
      ),
    },
    { key: 'name', header: 'Legal name', cell: (c) => c.legalName ?? '—' },
    {
      key: 'doc',
      header: 'Document',
      cell: (c) =>
        c.documentType
          ? (KYC_DOCUMENT_LABEL[c.documentType as keyof typeof KYC_DOCUMENT_LABEL] ?? c.documentType)
          : '—',
    },
    { key: 'country', header: 'Country', cell: (c) => c.country ?? '—' },
    {
      key: 'age',
      header: 'Waiting',
      primary: true,
      className: 'text-right',
      cell: (c) => (
        <span
          className={`text-xs tabular-nums ${isOverdue(c.submittedAt, now) ? 'font-semibold text-red-600' : 'text-slate-600'}`}
        >
          {formatAge(c.submittedAt, now)}
        </span>
      ),
    },
  ];
  return (
    <DataTable
      columns={columns}
      rows={rows}
      rowKey={(c) => c.userId}
      rowHref={(c) => adminPaths.kycCase(c.userId)}
      label="KYC under review"
      rowTestId="queue-kyc-row"
    />
  );
}
