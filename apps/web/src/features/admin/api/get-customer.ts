import { useQuery } from '@tanstack/react-query';
import { customerDetailSchema } from '@offzero/shared/api/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, enc } from './admin-query';

export function useCustomer(userId: string) {
  return useQuery({
    queryKey: [ADMIN_KEY, 'customer', userId],
    queryFn: ({ signal }) => apiGet(`/admin/users/${enc(userId)}`, { schema: customerDetailSchema, signal }),
  });
}
