import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '../../../lib/toast';
import { orderStatusSchema, paymentMethodSchema } from '@offzero/shared/api/orders';
import { errorMessage } from '../../../lib/api-client';
import { firstError, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { downloadOrdersCsv } from '../api/export-orders-csv';
import { useAdminOrders, type OrderFilters } from '../api/search-orders';
import { saveBlob } from '../../../lib/save-blob';
import { orderSearchFormSchema } from '@offzero/shared/api/admin';
import { AdminPageHeader } from '../components/blocks';
import { DownloadIcon } from '../../../components/ui/icons';
import { OrderFilterBar } from './order-filter-bar';
import { OrdersResults } from './orders-results';

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

      <OrderFilterBar
        filters={filters}
        searchField={searchForm.register('customer')}
        onSearch={(event) => void onSearch(event)}
        update={update}
      />

      <OrdersResults
        orders={orders}
        page={page}
        filtered={filtered}
        onPage={(next) => update({ page: next > 0 ? String(next) : undefined })}
      />
    </div>
  );
}
