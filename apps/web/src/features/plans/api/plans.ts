import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { planListSchema, planResponseSchema, type CreatePlanRequest } from '@offzero/shared/api/plans';
import { apiGet, apiPost } from '../../../lib/api-client';
import { newIdempotencyKey } from '../../../lib/idempotency-key';
import { withPasskeyStepUp } from '../../../lib/passkey-step-up';
import { freshOnThisScreen } from '../../../lib/screen-freshness';
import { useSession } from '../../../lib/session';

// Recurring buys (docs/design.md, "Recurring buys"): the customer's plans, and the calls that change
// them. Every change answers the plan as stored, and the list is read again afterwards.

const plansQueryKey = (userId: string) => ['plans', userId] as const;

export function plansQueryOptions(userId: string) {
  return queryOptions({
    queryKey: plansQueryKey(userId),
    queryFn: async ({ signal }) => (await apiGet('/plans', { schema: planListSchema, signal })).plans,
    staleTime: freshOnThisScreen,
  });
}

export function usePlans() {
  const session = useSession();
  return useQuery({ ...plansQueryOptions(session?.userId ?? ''), enabled: session !== null });
}

function useRefreshPlans() {
  const queryClient = useQueryClient();
  const session = useSession();
  return () => queryClient.invalidateQueries({ queryKey: plansQueryKey(session?.userId ?? '') });
}

export function useCreatePlan() {
  const refresh = useRefreshPlans();
  return useMutation({
    mutationFn: (body: CreatePlanRequest) => {
      const idempotencyKey = newIdempotencyKey();
      const { amountUsd, frequency, payoutAddressId } = body;
      // With a passkey, the server asks for it; the same call then goes again with the assertion.
      return withPasskeyStepUp('plan.create', { amountUsd, frequency, payoutAddressId }, (headers) =>
        apiPost('/plans', body, { schema: planResponseSchema, idempotencyKey, headers }),
      );
    },
    onSuccess: () => refresh(),
  });
}

export function useChangePlan() {
  const refresh = useRefreshPlans();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'pause' | 'resume' | 'cancel' }) =>
      apiPost(`/plans/${encodeURIComponent(id)}/${action}`, undefined, {
        schema: planResponseSchema,
        idempotencyKey: newIdempotencyKey(),
      }),
    onSuccess: () => refresh(),
  });
}
