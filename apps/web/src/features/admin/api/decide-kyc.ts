import { useMutation, useQueryClient } from '@tanstack/react-query';
import { kycDecisionAnswerSchema } from '@offzero/shared/api/admin';
import { apiPost } from '../../../lib/api-client';
import { ADMIN_KEY, enc } from './admin-query';

export function useDecideKyc(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: { status: 'GREEN' | 'RED'; reason?: string }) =>
      apiPost(`/admin/kyc/${enc(userId)}`, decision, { schema: kycDecisionAnswerSchema }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}
