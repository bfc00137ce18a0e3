import { useMutation } from '@tanstack/react-query';
import { messageResponseSchema, userAnswerSchema } from '@offzero/shared/api/accounts';
import { apiPost } from '../../../lib/api-client';
import { withPasskeyStepUp } from '../../../lib/passkey-step-up';

// Changing the e-mail (docs/design.md): the step-up code from the current address, then the code sent
// to the new one.

export function sendEmailChangeCode(input: { newEmail: string; stepUpCode: string }) {
  return withPasskeyStepUp('email.change', { newEmail: input.newEmail }, (headers) =>
    apiPost('/user/email/change', input, { schema: messageResponseSchema, headers }),
  );
}

export function confirmEmailChange(input: { newEmail: string; code: string }) {
  return apiPost('/user/email/change/verify', input, { schema: userAnswerSchema });
}

export const useSendEmailChangeCode = () => useMutation({ mutationFn: sendEmailChangeCode });
export const useConfirmEmailChange = () => useMutation({ mutationFn: confirmEmailChange });
