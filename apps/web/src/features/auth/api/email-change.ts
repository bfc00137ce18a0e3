import { useMutation } from '@tanstack/react-query';
import { messageResponseSchema, userAnswerSchema } from '@offzero/shared/api/accounts';
import { apiPost } from '../../../lib/api-client';

// Changing the e-mail (docs/design.md): the step-up code from the current address, then the code sent
// to the new one.

export function sendEmailChangeCode(input: { newEmail: string; stepUpCode: string }) {
  return apiPost('/user/email/change', input, { schema: messageResponseSchema });
}

export function confirmEmailChange(input: { newEmail: string; code: string }) {
  return apiPost('/user/email/change/verify', input, { schema: userAnswerSchema });
}

export const useSendEmailChangeCode = () => useMutation({ mutationFn: sendEmailChangeCode });
export const useConfirmEmailChange = () => useMutation({ mutationFn: confirmEmailChange });
