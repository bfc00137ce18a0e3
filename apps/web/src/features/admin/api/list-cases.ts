import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { caseListSchema, type CaseRule, type CaseStatus } from '@offzero/shared/api/cases';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, QUEUE_POLL_MS, queryString } from './admin-query';

export interface CaseFilters {
  status?: CaseStatus | undefined;
  rule?: CaseRule | undefined;
  userId?: string | undefined;
}

export function useMonitoringCases(filters: CaseFilters, options: { poll?: boolean } = {}) {
  const search = queryString({ status: filters.status, rule: filters.rule, userId: filters.userId?.trim() });
  return useQuery({
    queryKey: [ADMIN_KEY, 'cases', 'list', search],
    queryFn: ({ signal }) => apiGet(`/admin/cases${search}`, { schema: caseListSchema, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: options.poll ? QUEUE_POLL_MS : false,
  });
}
