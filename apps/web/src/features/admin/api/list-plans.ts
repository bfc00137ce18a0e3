import { useQuery } from '@tanstack/react-query';
import { adminPlanListSchema } from '@offzero/shared/api/plans';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, QUEUE_POLL_MS } from './admin-query';

/** Recurring buys with each run's debit, hold and return (docs/design.md, "Recurring buys"). */
export function useAdminPlans() {
  return useQuery({
    queryKey: [ADMIN_KEY, 'plans'],
    queryFn: ({ signal }) => apiGet('/admin/plans', { schema: adminPlanListSchema, signal }),
    refetchInterval: QUEUE_POLL_MS,
  });
}
