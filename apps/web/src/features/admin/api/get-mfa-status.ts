import { useQuery } from '@tanstack/react-query';
import { mfaStatusSchema } from '@offzero/shared/api/accounts';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY } from './admin-query';

/** Two-factor authentication of the signed-in admin. */
export function useMfaStatus() {
  return useQuery({
    queryKey: [ADMIN_KEY, 'mfa'],
    queryFn: ({ signal }) => apiGet('/admin/mfa', { schema: mfaStatusSchema, signal }),
  });
}
