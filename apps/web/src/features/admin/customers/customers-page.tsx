import { Link, useSearchParams } from 'react-router';
import { toast } from '../../../lib/toast';
import { customerSearchFormSchema } from '@offzero/shared/api/admin';
import { errorMessage } from '../../../lib/api-client';
import { firstError, useZodForm } from '../../../lib/forms';
import { displayName } from '../../../lib/current-user';
import { Button } from '../../../components/ui/button';
import { PageLoadError } from '../../../components/ui/page';
import { useCustomers } from '../api/search-customers';
import type { CustomerListItem } from '@offzero/shared/api/admin';
import { adminPaths } from '../admin-paths';
import { AdminPageHeader, EmptyState, TableSkeleton } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { Pill } from '../components/badges';
import { FilterInput } from '../components/filter-fields';
import { SearchIcon } from '../../../components/ui/icons';
import { formatDate } from '../format';

/** Customers, newest first; search by e-mail, phone or id. */
export default function CustomersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const form = useZodForm(customerSearchFormSchema, { defaultValues: { q } });
  const customers = useCustomers(q);

  // The schema trims the term; a blank search lists the newest customers.
  const onSubmit = form.handleSubmit(
    ({ q: term }) => setParams(term ? { q: term } : {}, { replace: true }),
    (errors) => {
      const message = firstError(errors, ['q']);
      if (message) toast.error(message);
    },
  );

  const columns: Column<CustomerListItem>[] = [
    {
      key: 'email',
      header: 'Customer',
      primary: true,
      cell: (u) => (
        <span className="block min-w-0">
          <Link
            to={adminPaths.customer(u._id)}
            className="font-semibold break-all text-brand-700 hover:underline"
          >
            {u.email}
          </Link>
          {displayName(u) !== u.email && (
            <span className="block text-xs text-slate-500">{displayName(u)}</span>
          )}
        </span>
      ),
    },
    {
      key: 'state',
      header: 'Account',
      primary: true,
      cell: (u) => (
        <span className="inline-flex flex-wrap gap-1">
          {u.disabled ? <Pill tone="red">disabled</Pill> : <Pill tone="emerald">active</Pill>}
          {u.role === 'admin' && <Pill tone="violet">admin</Pill>}
        </span>
      ),
    },
    { key: 'phone', header: 'Phone', cell: (u) => u.phoneNumber ?? '—' },
    {
      key: 'verified',
      header: 'Verified',
      cell: (u) => (
        <span className="inline-flex gap-1">
          <Pill tone={u.email_verified ? 'emerald' : 'amber'}>e-mail</Pill>
          <Pill tone={u.phone_verified ? 'emerald' : 'amber'}>phone</Pill>
        </span>
      ),
    },
    {
      key: 'created',
      header: 'Joined',
      cell: (u) => <span className="text-xs text-slate-600">{formatDate(u.createdAt)}</span>,
    },
  ];

  return (
    <div className="space-y-5">
      <title>Customers — OffZero back office</title>
      <AdminPageHeader
        title="Customers"
        description="Find a customer by e-mail, phone number or customer id."
      />
      <form
        role="search"
        onSubmit={(event) => void onSubmit(event)}
        className="flex gap-2 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/80"
      >
        <FilterInput
          label="Search customers"
          type="search"
          {...form.register('q')}
          placeholder="ada@example.com, +1202…, or a customer or order number"
          icon={<SearchIcon className="size-4" />}
          className="flex-1"
        />
        <Button type="submit" variant="secondary" size="sm" className="h-10 self-end">
          Search
        </Button>
      </form>
      {customers.isError ? (
        <PageLoadError message={errorMessage(customers.error)} onRetry={() => void customers.refetch()} />
      ) : (
        <div
          className={`overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80 ${customers.isPlaceholderData ? 'opacity-60' : ''}`}
        >
          {customers.isPending ? (
            <TableSkeleton label="Loading customers" />
          ) : customers.data.users.length === 0 ? (
            <EmptyState title={q ? `No customer matches “${q}”.` : 'No customers yet.'} />
          ) : (
            <>
              <DataTable
                columns={columns}
                rows={customers.data.users}
                rowKey={(u) => u._id}
                rowHref={(u) => adminPaths.customer(u._id)}
                label="Customers"
                rowTestId="customer-row"
              />
              <p className="border-t border-slate-100 px-4 py-3 text-xs text-slate-500 sm:px-5">
                {customers.data.users.length === 50
                  ? 'Showing the 50 newest matches. Narrow the search to find others.'
                  : `${customers.data.users.length} customer${customers.data.users.length === 1 ? '' : 's'}`}
              </p>
            </>
          )}
        </div>
      )}
    </div>
  );
}
