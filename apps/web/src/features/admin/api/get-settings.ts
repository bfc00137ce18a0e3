import { useQuery } from '@tanstack/react-query';
import { adminSettingsAnswerSchema } from '@offzero/shared/api/admin';
import { apiGet } from '../../../lib/api-client';
import { ADMIN_KEY } from './admin-query';

/** The key the settings are cached under; saving writes the answer there (save-settings.ts). */
export const SETTINGS_KEY = [ADMIN_KEY, 'settings'];

export function useAdminSettings() {
  return useQuery({
    queryKey: SETTINGS_KEY,
    queryFn: async ({ signal }) =>
      (await apiGet('/admin/settings', { schema: adminSettingsAnswerSchema, signal })).settings,
  });
}
