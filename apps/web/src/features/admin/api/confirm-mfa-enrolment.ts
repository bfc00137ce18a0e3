import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponseSchema } from '@offzero/shared/api/accounts';
import { apiPost } from '../../../lib/api-client';
import { ADMIN_KEY } from './admin-query';

export function useConfirmMfaEnrolment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiPost('/admin/mfa/verify', { code }, { schema: messageResponseSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}
