import { useQuery } from '@tanstack/react-query';
import { kycCasesSchema } from '@offzero/shared/api/admin';
import type { KycStatusValue } from '@offzero/shared/api/kyc';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, QUEUE_POLL_MS } from './admin-query';

export function useKycCases(status: KycStatusValue) {
  return useQuery({
    queryKey: [ADMIN_KEY, 'kyc', 'list', status],
    queryFn: ({ signal }) => apiGet(`/admin/kyc?status=${status}`, { schema: kycCasesSchema, signal }),
    refetchInterval: status === 'YELLOW' ? QUEUE_POLL_MS : false,
  });
}
