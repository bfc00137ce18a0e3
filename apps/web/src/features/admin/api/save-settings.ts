import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FullGlobalSettings } from '@offzero/shared/api/global-settings';
import { saveSettingsAnswerSchema } from '@offzero/shared/api/admin';
import { apiPut } from '../../../lib/api-client';
import { ADMIN_KEY } from './admin-query';
import { SETTINGS_KEY } from './get-settings';

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: FullGlobalSettings) =>
      apiPut('/admin/settings', settings, { schema: saveSettingsAnswerSchema }),
    onSuccess: (answer) => {
      queryClient.setQueryData(SETTINGS_KEY, answer.settings);
      // Screens outside the console that read the settings (the trade widget) read them again.
      return queryClient.invalidateQueries({
        predicate: (query) => query.queryKey[0] !== ADMIN_KEY,
      });
    },
  });
}
