import { useQueries } from '@tanstack/react-query';
import { customerListSchema } from '@offzero/shared/api/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY, queryString } from './admin-query';

/** E-mail addresses of staff ids named in a timeline ('admin:<id>'), looked up once each. */
export function useStaffEmails(ids: string[]): Record<string, string> {
  const unique = [...new Set(ids)].sort();
  const results = useQueries({
    queries: unique.map((id) => ({
      queryKey: [ADMIN_KEY, 'staff-email', id],
      staleTime: Infinity,
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        (
          await apiGet(`/admin/users${queryString({ q: id, limit: 1 })}`, {
            schema: customerListSchema,
            signal,
          })
        ).users[0]?.email ?? null,
    })),
  });
  const emails: Record<string, string> = {};
  unique.forEach((id, index) => {
    const email = results[index]?.data;
    if (email) emails[id] = email;
  });
  return emails;
}
