import { queryOptions, useQuery } from '@tanstack/react-query';
import { orderDetailSchema } from '@offzero/shared/api/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, enc } from './admin-query';

export const orderDetailQuery = (orderId: string) =>
  queryOptions({
    queryKey: [ADMIN_KEY, 'order', orderId],
    queryFn: ({ signal }) => apiGet(`/admin/orders/${enc(orderId)}`, { schema: orderDetailSchema, signal }),
  });

export function useAdminOrder(orderId: string) {
  return useQuery(orderDetailQuery(orderId));
}
