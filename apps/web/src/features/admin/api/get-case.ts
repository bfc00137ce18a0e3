import { useQuery } from '@tanstack/react-query';
import { caseDetailSchema } from '@offzero/shared/api/cases';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, enc } from './admin-query';

export function useMonitoringCase(caseId: string) {
  return useQuery({
    queryKey: [ADMIN_KEY, 'cases', 'case', caseId],
    queryFn: async ({ signal }) =>
      (await apiGet(`/admin/cases/${enc(caseId)}`, { schema: caseDetailSchema, signal })).case,
  });
}
