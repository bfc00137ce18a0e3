import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { passkeyAnswerSchema, passkeyListSchema, recoveryAnswerSchema } from '@offzero/shared/api/passkeys';
import { messageResponseSchema } from '@offzero/shared/api/accounts';
import { apiDelete, apiGet, apiPatch, apiPost, hasErrorCode } from '../../../lib/api-client';
import { passkeyStepUpHeaders, withPasskeyStepUp } from '../../../lib/passkey-step-up';
import { useSession } from '../../../lib/session';

// The signed-in user's passkeys (docs/design.md, "Passkeys"): the list, adding one (the browser makes
// it), renaming, removing (confirmed by a passkey), and recovery by e-mail and SMS codes.

const passkeysQueryKey = (userId: string) => ['passkeys', userId] as const;
const optionsAnswer = z.object({ options: z.record(z.string(), z.unknown()) });

export function usePasskeys() {
  const session = useSession();
  return useQuery({
    queryKey: passkeysQueryKey(session?.userId ?? ''),
    queryFn: ({ signal }) => apiGet('/passkeys', { schema: passkeyListSchema, signal }),
    enabled: session !== null,
  });
}

/** Read again after a change: the list, and whatever shows the second factor (an admin's security page). */
function useRefresh() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

/** Registration options; once a passkey exists, adding another is confirmed by it first. */
async function registrationOptions(name: string) {
  try {
    return await apiPost('/passkeys/registration/options', { name }, { schema: optionsAnswer });
  } catch (error) {
    if (!hasErrorCode(error, 'PASSKEY_STEP_UP_REQUIRED')) throw error;
    const headers = await passkeyStepUpHeaders('passkey.add', {});
    return apiPost('/passkeys/registration/options', { name }, { schema: optionsAnswer, headers });
  }
}

export async function addPasskey(name: string) {
  const { options } = await registrationOptions(name);
  const { startRegistration } = await import('@simplewebauthn/browser');
  const response = await startRegistration({ optionsJSON: options as never });
  return apiPost('/passkeys/registration/verify', { response }, { schema: passkeyAnswerSchema });
}

export function useAddPasskey() {
  const refresh = useRefresh();
  return useMutation({ mutationFn: addPasskey, onSuccess: () => refresh() });
}

export function useRenamePasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      apiPatch(`/passkeys/${encodeURIComponent(id)}`, { name }, { schema: passkeyAnswerSchema }),
    onSuccess: () => refresh(),
  });
}

export function useRemovePasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) =>
      withPasskeyStepUp('passkey.remove', { id }, (headers) =>
        apiDelete(`/passkeys/${encodeURIComponent(id)}`, { schema: passkeyAnswerSchema, headers }),
      ),
    onSuccess: () => refresh(),
  });
}

export function useSendRecoveryCodes() {
  return useMutation({
    mutationFn: () => apiPost('/passkeys/recovery/send', undefined, { schema: messageResponseSchema }),
  });
}

export function useCompleteRecovery() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (codes: { emailCode: string; smsCode: string }) =>
      apiPost('/passkeys/recovery/verify', codes, { schema: recoveryAnswerSchema }),
    onSuccess: () => refresh(),
  });
}
