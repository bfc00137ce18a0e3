import { ReferralCard } from '../../features/referrals/components/referral-card';
import { SettingsPage } from '../../features/settings/settings-page';

/** Settings (spec section 2) with the referral feature's card after the payment and notification cards. */
export default function SettingsRoute() {
  return <SettingsPage moreCards={(settings) => <ReferralCard referralCode={settings.referralCode} />} />;
}
