import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { referralRecordSchema } from '@offzero/shared/api/user-settings';
import { publicGlobalSettingsSchema } from '@offzero/shared/api/global-settings';
import { apiGet, isAbortError } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

// Referral rewards (the product specification; docs/design.md). In this API `referred_id` is the signed-in
// referrer's own id; each record's `referrer_id` is the customer whose trade earned the reward.

const totalAnswerSchema = z.object({ sumOfRewards: z.number() });
const historyAnswerSchema = z.object({ referrals: z.array(referralRecordSchema) });
// Only the referral part is read here; the rest of the global settings belongs to the trade widget.
const referralProgrammeAnswerSchema = z.object({
  settings: z.object({ referral: publicGlobalSettingsSchema.shape.referral }),
});

export function useTotalRewards() {
  const session = useSession();
  const userId = session?.userId ?? '';
  return useQuery({
    queryKey: ['referral-total', userId],
    enabled: session !== null,
    queryFn: async ({ signal }) => {
      try {
        const answer = await apiGet(`/referral/totalrewards?referred_id=${encodeURIComponent(userId)}`, {
          schema: totalAnswerSchema,
          signal,
        });
        return answer.sumOfRewards;
      } catch (error) {
        // Only logged.
        if (!isAbortError(error)) console.error('Could not load the total rewards', error);
        throw error;
      }
    },
  });
}

export function useReferralHistory() {
  const session = useSession();
  const userId = session?.userId ?? '';
  return useQuery({
    queryKey: ['referral-history', userId],
    enabled: session !== null,
    queryFn: async ({ signal }) => {
      try {
        const answer = await apiGet(`/referral/history?referred_id=${encodeURIComponent(userId)}`, {
          schema: historyAnswerSchema,
          signal,
        });
        return answer.referrals;
      } catch (error) {
        // Logged, and the page shows its empty state.
        if (!isAbortError(error)) console.error('Could not load the referral history', error);
        throw error;
      }
    },
  });
}

/** The programme's terms from GET /api/admin/settings: the reward percentage and how many trades count. */
export function useReferralProgramme() {
  return useQuery({
    queryKey: ['global-settings', 'referral'],
    queryFn: async ({ signal }) =>
      (await apiGet('/admin/settings', { schema: referralProgrammeAnswerSchema, signal })).settings.referral,
    staleTime: 5 * 60_000,
  });
}
