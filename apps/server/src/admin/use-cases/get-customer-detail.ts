import type { Database } from '../../db/database';
import { AppError } from '../../http/errors';
import type { UserSettingsService } from '../../settings/user-settings.service';
import {
  findReferralRewardsEarned,
  findUser,
  findUserKyc,
  findUserOrders,
} from '../admin-customers.repository';

/** Everything the back office knows about one customer: account, settings, KYC, orders and rewards. */
export async function getCustomerDetail(
  deps: { db: Database; adminEmails: readonly string[]; userSettings: UserSettingsService },
  userId: string,
) {
  const user = await findUser(deps.db, userId);
  if (!user) throw new AppError('NOT_FOUND', 'Customer not found.');
  const [kyc, orders, referral, settings] = await Promise.all([
    findUserKyc(deps.db, user.id),
    findUserOrders(deps.db, user.id),
    findReferralRewardsEarned(deps.db, user.id),
    deps.userSettings.get(user.id),
  ]);
  return {
    user,
    isAdmin: deps.adminEmails.includes(user.email),
    settings,
    kyc,
    orders,
    referralRewards: referral.rewards,
    referralTotalCents: referral.totalCents,
  };
}
