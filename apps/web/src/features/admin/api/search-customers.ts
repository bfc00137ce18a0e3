import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { customerListSchema } from '@offzero/shared/api/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, queryString } from './admin-query';

export function useCustomers(q: string) {
  const search = queryString({ q: q.trim() });
  return useQuery({
    queryKey: [ADMIN_KEY, 'customers', search],
    queryFn: ({ signal }) => apiGet(`/admin/users${search}`, { schema: customerListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}
