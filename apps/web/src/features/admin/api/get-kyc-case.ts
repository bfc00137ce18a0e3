import { useQuery } from '@tanstack/react-query';
import { kycCaseAnswerSchema } from '@offzero/shared/api/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, enc } from './admin-query';

export function useKycCase(userId: string) {
  return useQuery({
    queryKey: [ADMIN_KEY, 'kyc', 'case', userId],
    queryFn: async ({ signal }) =>
      (await apiGet(`/admin/kyc/${enc(userId)}`, { schema: kycCaseAnswerSchema, signal })).case,
  });
}
