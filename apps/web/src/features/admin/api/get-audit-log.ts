import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditListSchema, type AuditTargetType } from '@offzero/shared/api/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, queryString } from './admin-query';

export interface AuditFilters {
  action?: string;
  targetType?: AuditTargetType | '';
  targetId?: string;
  admin?: string;
  limit?: number;
}

export function useAuditLog(filters: AuditFilters) {
  const search = queryString({
    action: filters.action?.trim(),
    targetType: filters.targetType,
    targetId: filters.targetId?.trim(),
    admin: filters.admin?.trim(),
    limit: filters.limit,
  });
  return useQuery({
    queryKey: [ADMIN_KEY, 'audit', search],
    queryFn: ({ signal }) => apiGet(`/admin/audit${search}`, { schema: auditListSchema, signal }),
    placeholderData: keepPreviousData,
  });
}
