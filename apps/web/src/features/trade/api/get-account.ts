import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../../lib/session';
import { useCurrentUser } from '../../../lib/current-user';
import { kycQueryOptions } from '../../../domain/kyc';
import { userSettingsQueryOptions } from '../../../domain/user-settings';
import type { TradeAccount } from '../utils/trade-checks';

// What the trade checks read about the customer besides the profile (lib/current-user.ts): their KYC
// record and their settings (bank account, Zelle e-mail, wallet address). Both are the very queries the
// KYC and Settings screens use (domain/kyc.ts, domain/user-settings.ts), read again whenever a screen opens,
// so a change made in Settings a moment ago counts; the widget shares the read its screen made.

export function useOwnSettings() {
  const userId = useSession()?.userId ?? '';
  return useQuery({ ...userSettingsQueryOptions(userId), enabled: userId !== '' });
}

/** The KYC screens' own query, so an approval seen by the dashboard tile reaches the widget too. */
export function useOwnKyc() {
  const userId = useSession()?.userId ?? '';
  return useQuery({ ...kycQueryOptions(userId), enabled: userId !== '' });
}

/**
 * Everything the trade checks read about the signed-in customer, once all of it has loaded; `error` is
 * the first failure. Visitors have none of it (`enabled` is false for them).
 */
export function useTradeAccount() {
  const user = useCurrentUser();
  const kyc = useOwnKyc();
  const settings = useOwnSettings();
  const account: TradeAccount | null =
    user.data && kyc.data !== undefined && settings.data
      ? { user: user.data, kyc: kyc.data, settings: settings.data }
      : null;
  return {
    account,
    settings: settings.data ?? null,
    error: user.error ?? kyc.error ?? settings.error ?? null,
  };
}
