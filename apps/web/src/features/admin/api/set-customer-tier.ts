import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageAnswerSchema } from '@offzero/shared/api/admin';
import { apiPost } from '../../../lib/api-client';
import { ADMIN_KEY, enc } from './admin-query';

/** Moves a customer between the KYC tiers of the trading limits (audited with the reason). */
export function useSetCustomerTier(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ tier, reason }: { tier: 1 | 2; reason: string }) =>
      apiPost(`/admin/users/${enc(userId)}/tier`, { tier, reason }, { schema: messageAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}
