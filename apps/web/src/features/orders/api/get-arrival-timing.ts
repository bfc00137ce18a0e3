import { useQuery } from '@tanstack/react-query';
import { globalSettingsResponseSchema, type ArrivalTiming } from '@offzero/shared/api/global-settings';
import { apiGet } from '../../../lib/api-client';

/**
 * When each payment method's money or bitcoin arrives, as the operator set it in the settings (the
 * public part of `GET /api/admin/settings`): the order drawer names it for the order's method.
 */
export function useArrivalTiming(enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['orders', 'arrival-timing'],
    queryFn: async ({ signal }): Promise<ArrivalTiming> =>
      (await apiGet('/admin/settings', { schema: globalSettingsResponseSchema, signal })).settings.arrival,
    staleTime: 60_000,
  });
}
