import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageAnswerSchema } from '@offzero/shared/api/admin';
import { apiPost } from '../../../lib/api-client';
import { ADMIN_KEY, enc } from './admin-query';

export function useSetCustomerEnabled(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      action,
      reason,
    }: {
      action: 'disable' | 'enable' | 'restrict' | 'lift-restriction';
      reason: string;
    }) => apiPost(`/admin/users/${enc(userId)}/${action}`, { reason }, { schema: messageAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}
