import { useMutation, useQueryClient } from '@tanstack/react-query';
import { caseUpdateAnswerSchema, type CaseUpdateRequest } from '@offzero/shared/api/cases';
import { apiPost } from '../../../lib/api-client';
import { ADMIN_KEY, enc } from './admin-query';

export function useUpdateCase(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ change, idempotencyKey }: { change: CaseUpdateRequest; idempotencyKey: string }) =>
      apiPost(`/admin/cases/${enc(caseId)}`, change, { schema: caseUpdateAnswerSchema, idempotencyKey }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_KEY] }),
  });
}
