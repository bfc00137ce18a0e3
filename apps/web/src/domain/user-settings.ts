import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { userSettingsSchema, type BankAccount, type UserSettings } from '@offzero/shared/api/user-settings';
import { apiGet, apiPost, isAbortError } from '../lib/api-client';
import { withPasskeyStepUp } from '../lib/passkey-step-up';
import { freshOnThisScreen } from '../lib/screen-freshness';
import { useSession } from '../lib/session';

// The customer's settings: GET /api/user/settings?userId=<own id>, and the
// calls that change one part of them. Every change answers `{ message }` and the settings are read
// again afterwards, so the screens show what the server stored, never what the form held.

const settingsAnswerSchema = z.object({ settings: userSettingsSchema });
const messageSchema = z.object({ message: z.string() });

export const userSettingsQueryKey = (userId: string) => ['user-settings', userId] as const;

export function userSettingsQueryOptions(userId: string) {
  return queryOptions({
    queryKey: userSettingsQueryKey(userId),
    queryFn: async ({ signal }) => {
      try {
        const answer = await apiGet(`/user/settings?userId=${encodeURIComponent(userId)}`, {
          schema: settingsAnswerSchema,
          signal,
        });
        return answer.settings;
      } catch (error) {
        // A failed settings fetch is only logged; the cards show it quietly.
        if (!isAbortError(error)) console.error('Could not load the settings', error);
        throw error;
      }
    },
    // Read afresh whenever a screen opens: a bank account saved from another device must show on
    // Settings at once, not after the app-wide 15 s. Parts of one screen share one read.
    staleTime: freshOnThisScreen,
  });
}

/** The signed-in customer's settings; only used under the signed-in guard. */
export function useUserSettings() {
  const session = useSession();
  return useQuery({
    ...userSettingsQueryOptions(session?.userId ?? ''),
    enabled: session !== null,
  });
}

/** The signed-in customer's id, for the calls that must name it (always their own). */
function useOwnId(): string {
  const session = useSession();
  return session?.userId ?? '';
}

/** Reads the settings again after a change (and changes the cached copy at once when asked). */
function useRefreshSettings() {
  const queryClient = useQueryClient();
  const userId = useOwnId();
  return (change?: Partial<UserSettings>) => {
    if (change) {
      queryClient.setQueryData<UserSettings>(userSettingsQueryKey(userId), (current) =>
        current ? { ...current, ...change } : current,
      );
    }
    return queryClient.invalidateQueries({ queryKey: userSettingsQueryKey(userId) });
  };
}

export function useSaveBankAccount() {
  const userId = useOwnId();
  const refresh = useRefreshSettings();
  return useMutation({
    mutationFn: (bankAccount: BankAccount) =>
      withPasskeyStepUp('bank-account.save', { bankAccount }, (headers) =>
        apiPost('/user/settings/bank/save', { userId, bankAccount }, { schema: messageSchema, headers }),
      ),
    onSuccess: () => refresh(),
  });
}

export function useSaveZelleEmail() {
  const userId = useOwnId();
  const refresh = useRefreshSettings();
  return useMutation({
    mutationFn: (zelleEmail: string) =>
      withPasskeyStepUp('zelle-email.save', { zelleEmail }, (headers) =>
        apiPost('/user/settings/zelle/save', { userId, zelleEmail }, { schema: messageSchema, headers }),
      ),
    onSuccess: () => refresh(),
  });
}

/** One of the settings `POST /api/user/settings/save` changes; exactly one per call. */
export type SettingChange =
  { walletAddress: string } | { receiveEmail: boolean } | { receiveSMS: boolean } | { referralCode: string };

export function useSaveSetting() {
  const userId = useOwnId();
  const refresh = useRefreshSettings();
  return useMutation({
    mutationFn: (change: SettingChange) => {
      const save = (headers?: Record<string, string>) =>
        apiPost('/user/settings/save', { userId, ...change }, { schema: messageSchema, headers });
      // The wallet address is where bought bitcoin goes: a passkey confirms it (docs/design.md, "Passkeys").
      return 'walletAddress' in change
        ? withPasskeyStepUp('wallet-address.save', { walletAddress: change.walletAddress }, save)
        : save();
    },
    // Only after the server said 200: the stored value changes in the cache (the toggles flip now,
    // never before), then the settings are read again.
    onSuccess: (_answer, change) => refresh(change),
  });
}
