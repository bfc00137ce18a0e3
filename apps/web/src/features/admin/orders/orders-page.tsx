import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { toast } from '../../../lib/toast';
import { orderStatusSchema, paymentMethodSchema } from '@offzero/shared/api/orders';
import { errorMessage } from '../../../lib/api-client';
import { firstError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { PageLoadError } from '../../../components/ui/page';
import { downloadOrdersCsv } from '../api/export-orders-csv';
import { ORDERS_PAGE_SIZE, useAdminOrders, type OrderFilters } from '../api/search-orders';
import { saveBlob } from '../../../lib/save-blob';
import { orderSearchFormSchema, type AdminOrder } from '@offzero/shared/api/admin';
import { adminPaths } from '../admin-paths';
import { AdminPageHeader, EmptyState, Pagination, TableSkeleton } from '../components/blocks';
import { DataTable, type Column } from '../components/data-table';
import { FlagPill, StatusPill, TypeLabel } from '../components/badges';
import { FilterCheckbox, FilterInput, FilterSelect } from '../components/filter-fields';
import { DownloadIcon, SearchIcon } from '../../../components/ui/icons';
import { btc, formatDate, formatDateTime, formatTime, methodLabel, shortOrderId, usd } from '../format';

const FILTER_KEYS = ['status', 'type', 'method', 'customer', 'flagged', 'from', 'to'] as const;

/** The filters as the URL holds them, so a filtered list can be linked to and survives Back. */
export function filtersFromParams(params: URLSearchParams): OrderFilters {
  const pick = (key: string, allowed?: readonly string[]) => {
    const value = params.get(key) ?? '';
    return value && (!allowed || allowed.includes(value)) ? value : undefined;
  };
  const date = (key: string) => {
    const value = params.get(key) ?? '';
    return /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
  };
  return {
    status: pick('status', orderStatusSchema.options),
    type: pick('type', ['buy', 'sell']),
    method: pick('method', paymentMethodSchema.options),
    customer: pick('customer'),
    flagged: params.get('flagged') === 'true',
    from: date('from'),
    to: date('to'),
  };
}

/**
 * Every order, newest first: search by customer (e-mail, phone, customer or order id or short number) and filter by
 * status, type, method, flag and date; 25 to a page; the same selection as a CSV file.
 */
export default function OrdersPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const page = Math.max(0, Number.parseInt(params.get('page') ?? '0', 10) || 0);
  const orders = useAdminOrders(filters, page);
  const searchForm = useZodForm(orderSearchFormSchema, {
    defaultValues: { customer: filters.customer ?? '' },
  });
  const [exporting, setExporting] = useState(false);

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next, { replace: true });
  };

  // The schema trims the term; a blank search drops the filter.
  const onSearch = searchForm.handleSubmit(
    ({ customer }) => update({ customer: customer || undefined }),
    (errors) => {
      const message = firstError(errors, ['customer']);
      if (message) toast.error(message);
    },
  );

  const filtered = FILTER_KEYS.some((key) => params.has(key));

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { blob, filename } = await downloadOrdersCsv(filters);
      saveBlob(blob, filename ?? 'offzero-orders.csv');
      toast.success('CSV downloaded.');
    } catch (error) {
      toast.error(errorMessage(error, 'Could not export the orders.'));
    } finally {
      setExporting(false);
    }
  };

  const columns: Column<AdminOrder>[] = [
    {
      key: 'order',
      header: 'Order',
      primary: true,
      cell: (o) => (
        <Link
          to={adminPaths.order(o._id)}
          className="font-mono text-xs font-semibold text-brand-700 hover:underline"
          aria-label={`Order ${shortOrderId(o._id)}`}
        >
          #{shortOrderId(o._id)}
        </Link>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      primary: true,
      cell: (o) => (
        <span className="inline-flex flex-wrap items-center gap-1">
          <StatusPill status={o.status} />
          {o.flag && <FlagPill flag={o.flag} note={o.flagNote} />}
        </span>
      ),
    },
    {
      key: 'created',
      header: 'Created',
      cell: (o) => (
        <span
          className="text-xs leading-tight whitespace-nowrap text-slate-600"
          title={formatDateTime(o.createdAt)}
        >
          <span className="md:block">{formatDate(o.createdAt)}</span>{' '}
          <span className="text-slate-500 md:block">{formatTime(o.createdAt)}</span>
        </span>
      ),
    },
    {
      key: 'customer',
      header: 'Customer',
      cell: (o) => (
        <span
          className="block break-all md:max-w-48 md:truncate md:break-normal"
          title={o.customerEmail ?? undefined}
        >
          {o.customerEmail ?? '—'}
        </span>
      ),
    },
    {
      key: 'type',
      header: 'Type',
      cell: (o) => (
        <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
          <TypeLabel type={o.type} />
          <span className="text-xs text-slate-500">· {methodLabel(o.payment?.method)}</span>
        </span>
      ),
    },
    {
      key: 'amount',
      header: 'Amount',
      className: 'text-right',
      cell: (o) => <span className="whitespace-nowrap tabular-nums">{btc(o.amount)}</span>,
    },
    {
      key: 'value',
      header: 'Value',
      className: 'text-right',
      cell: (o) => <span className="font-semibold whitespace-nowrap tabular-nums">{usd(o.value)}</span>,
    },
  ];

  return (
    <div className="space-y-5">
      <title>Orders — OffZero back office</title>
      <AdminPageHeader
        title="Orders"
        description="Search and filter every order; open one for its timeline and actions."
        actions={
          <>
            {filtered && (
              <Button
                variant="ghost"
                size="sm"
                onClick={() => {
                  searchForm.reset({ customer: '' });
                  setParams(new URLSearchParams(), { replace: true });
                }}
              >
                Reset filters
              </Button>
            )}
            <Button variant="outline" size="sm" loading={exporting} onClick={() => void exportCsv()}>
              {!exporting && <DownloadIcon className="size-4" />}
              Export CSV
            </Button>
          </>
        }
      />

      <section aria-label="Filters" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200/80">
        <form role="search" onSubmit={(event) => void onSearch(event)} className="flex gap-2">
          <FilterInput
            label="Customer or order"
            type="search"
            {...searchForm.register('customer')}
            placeholder="E-mail, phone, or a customer or order number (#25a55680)"
            icon={<SearchIcon className="size-4" />}
            className="flex-1"
          />
          <Button type="submit" variant="secondary" size="sm" className="h-10 self-end">
            Search
          </Button>
        </form>
        <div className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]">
          <FilterSelect
            label="Status"
            value={filters.status ?? ''}
            onChange={(event) => update({ status: event.target.value || undefined })}
          >
            <option value="">All statuses</option>
            {orderStatusSchema.options.map((status) => (
              <option key={status} value={status}>
                {status}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect
            label="Type"
            value={filters.type ?? ''}
            onChange={(event) => update({ type: event.target.value || undefined })}
          >
            <option value="">Buy and sell</option>
            <option value="buy">Buy</option>
            <option value="sell">Sell</option>
          </FilterSelect>
          <FilterSelect
            label="Method"
            value={filters.method ?? ''}
            onChange={(event) => update({ method: event.target.value || undefined })}
          >
            <option value="">All methods</option>
            {paymentMethodSchema.options.map((method) => (
              <option key={method} value={method}>
                {methodLabel(method)}
              </option>
            ))}
          </FilterSelect>
          <FilterInput
            label="From"
            type="date"
            value={filters.from ?? ''}
            max={filters.to}
            onChange={(event) => update({ from: event.target.value || undefined })}
          />
          <FilterInput
            label="To"
            type="date"
            value={filters.to ?? ''}
            min={filters.from}
            onChange={(event) => update({ to: event.target.value || undefined })}
          />
          <FilterCheckbox
            label="Flagged only"
            checked={filters.flagged ?? false}
            onChange={(event) => update({ flagged: event.target.checked ? 'true' : undefined })}
          />
        </div>
      </section>

      {orders.isError ? (
        <PageLoadError message={errorMessage(orders.error)} onRetry={() => void orders.refetch()} />
      ) : (
        <div
          className={`overflow-hidden rounded-2xl bg-white shadow-sm ring-1 ring-slate-200/80 transition-opacity ${
            orders.isPlaceholderData ? 'opacity-60' : ''
          }`}
          aria-busy={orders.isFetching || undefined}
        >
          {orders.isPending ? (
            <TableSkeleton rows={8} label="Loading orders" />
          ) : orders.data.orders.length === 0 ? (
            <EmptyState title="No orders match these filters.">
              {filtered ? 'Try fewer filters, or reset them.' : 'Orders appear here as customers place them.'}
            </EmptyState>
          ) : (
            <>
              <DataTable
                columns={columns}
                rows={orders.data.orders}
                rowKey={(o) => o._id}
                rowHref={(o) => adminPaths.order(o._id)}
                label="Orders"
                testId="orders-table"
                rowTestId="admin-order-row"
              />
              <Pagination
                page={page}
                pageSize={ORDERS_PAGE_SIZE}
                total={orders.data.total}
                busy={orders.isFetching}
                onPage={(next) => update({ page: next > 0 ? String(next) : undefined })}
              />
            </>
          )}
        </div>
      )}
    </div>
  );
}
