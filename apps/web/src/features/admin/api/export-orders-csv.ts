import { apiGetFile } from '../../../lib/api-client';
import { queryString } from './admin-query';
import { filterParams, type OrderFilters } from './search-orders';

/** The orders CSV for the same filters (every matching order, not one page). */
export function downloadOrdersCsv(filters: OrderFilters) {
  return apiGetFile(`/admin/orders/export.csv${queryString(filterParams(filters))}`);
}
