import { useQuery } from '@tanstack/react-query';
import { achFileSummarySchema } from '@offzero/shared/api/ach-files';
import { apiGet, apiGetFile } from '../../../lib/api-client';
import { ADMIN_KEY } from './admin-query';

const achFileKey = (date: string) => [ADMIN_KEY, 'payouts', 'ach-file', date] as const;

/** What the day's ACH file holds, or would hold (docs/design.md, "ACH file"). */
export function useAchFileSummary(date: string) {
  return useQuery({
    queryKey: achFileKey(date),
    queryFn: ({ signal }) =>
      apiGet(`/admin/payouts/ach-file/summary?date=${encodeURIComponent(date)}`, {
        schema: achFileSummarySchema,
        signal,
      }),
    enabled: date !== '',
  });
}

/** The day's NACHA file: the first download marks its payouts submitted. */
export function downloadAchFile(date: string) {
  return apiGetFile(`/admin/payouts/ach-file?date=${encodeURIComponent(date)}`);
}

export { achFileKey };
