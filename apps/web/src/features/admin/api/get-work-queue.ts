import { useQuery } from '@tanstack/react-query';
import { queueSchema } from '@offzero/shared/api/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, QUEUE_POLL_MS } from './admin-query';

export function useWorkQueue() {
  return useQuery({
    queryKey: [ADMIN_KEY, 'queue'],
    queryFn: ({ signal }) => apiGet('/admin/queue', { schema: queueSchema, signal }),
    refetchInterval: QUEUE_POLL_MS,
  });
}
