import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  depositBuySettingResponseSchema,
  type DepositBuySettingRequest,
} from '@offzero/shared/api/deposit-buys';
import { apiGet, apiPut } from '../../../lib/api-client';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { withPasskeyStepUp } from '../../../lib/passkey-step-up';
import { freshOnThisScreen } from '../../../lib/screen-freshness';
import { useSession } from '../../../lib/session';

// "Buy bitcoin with every deposit" (docs/design.md, "Recurring buys"): the customer's setting.

const settingKey = (userId: string) => ['deposit-buys', userId] as const;

export function useDepositBuySetting() {
  const session = useSession();
  return useQuery({
    queryKey: settingKey(session?.userId ?? ''),
    queryFn: async ({ signal }) =>
      (await apiGet('/plans/deposit-buys', { schema: depositBuySettingResponseSchema, signal })).setting,
    staleTime: freshOnThisScreen,
    enabled: session !== null,
  });
}

export function useSaveDepositBuySetting() {
  const queryClient = useQueryClient();
  const session = useSession();
  return useMutation({
    mutationFn: (body: DepositBuySettingRequest) => {
      const idempotencyKey = newIdempotencyKey();
      const put = (headers?: Record<string, string>) =>
        apiPut('/plans/deposit-buys', body, {
          schema: depositBuySettingResponseSchema,
          idempotencyKey,
          ...(headers ? { headers } : {}),
        });
      // Turning it on names the entry every deposit pays: with a passkey, the server asks for it.
      return body.enabled && body.payoutAddressId
        ? withPasskeyStepUp('deposit-buys.save', { payoutAddressId: body.payoutAddressId }, put)
        : put();
    },
    onSuccess: (answer) => queryClient.setQueryData(settingKey(session?.userId ?? ''), answer.setting),
  });
}
