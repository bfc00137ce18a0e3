import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { orderListSchema } from '@offzero/shared/api/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, queryString } from './admin-query';

export interface OrderFilters {
  status?: string;
  type?: string;
  method?: string;
  customer?: string;
  flagged?: boolean;
  from?: string;
  to?: string;
}

export const ORDERS_PAGE_SIZE = 25;

/** The query parameters of the filters, shared with the CSV export (export-orders-csv.ts). */
export function filterParams(filters: OrderFilters) {
  return {
    status: filters.status,
    type: filters.type,
    method: filters.method,
    customer: filters.customer?.trim(),
    flagged: filters.flagged ? 'true' : undefined,
    from: filters.from,
    to: filters.to,
  };
}

export function useAdminOrders(filters: OrderFilters, page: number) {
  const search = queryString({
    ...filterParams(filters),
    limit: ORDERS_PAGE_SIZE,
    offset: page * ORDERS_PAGE_SIZE,
  });
  return useQuery({
    queryKey: [ADMIN_KEY, 'orders', search],
    queryFn: ({ signal }) => apiGet(`/admin/orders${search}`, { schema: orderListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}
