import { lazy, Suspense, useState } from 'react';
import type { User } from '@offzero/shared/api/accounts';
import { ChangeEmailModal } from '../../features/auth/components/change-email-modal';
import { AddressBookCard } from '../../features/payout-addresses/components/address-book-card';
import { PasskeysCard } from '../../features/passkeys/components/passkeys-card';
import { PlansCard } from '../../features/plans/components/plans-card';
import { DepositBuysCard } from '../../features/plans/components/deposit-buys-card';
import { ReferralCard } from '../../features/referrals/components/referral-card';
import { SettingsPage } from '../../features/settings/settings-page';
import { TaxDetailsCard } from '../../features/tax/components/tax-details-card';

// The phone number rules (libphonenumber's metadata, about 70 kB gzip) load only once the customer
// opens the phone dialog, as on the dashboard.
const VerifyPhoneModal = lazy(async () => ({
  default: (await import('../../features/auth/components/verify-phone-modal')).VerifyPhoneModal,
}));

/**
 * Settings with the payout address book, the tax feature's Tax details card (Form W-9)
 * and the referral feature's card after the payment and notification cards,
 * and the auth feature's dialogs beside the e-mail and the phone number (a verified contact changes
 * only after the security code sent to the e-mail).
 */
export default function SettingsRoute() {
  return (
    <SettingsPage
      moreCards={(settings) => (
        <>
          <AddressBookCard />
          <PasskeysCard />
          <PlansCard />
          <DepositBuysCard />
          <TaxDetailsCard />
          <ReferralCard referralCode={settings.referralCode} />
        </>
      )}
      phoneAction={(user) => <ChangePhone user={user} />}
      emailAction={(user) => <ChangeEmail user={user} />}
    />
  );
}

function ChangePhone({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first opening on, so the dialog keeps what it holds when closed and opened again.
  const [used, setUsed] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
        aria-label={user.phone_verified ? 'Change phone' : 'Verify phone'}
        className="text-sm font-semibold text-brand-700 hover:underline"
      >
        {user.phone_verified ? 'Change' : 'Verify'}
      </button>
      {used && (
        <Suspense fallback={null}>
          <VerifyPhoneModal user={user} open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

function ChangeEmail({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label="Change email"
        className="text-sm font-semibold text-brand-700 hover:underline"
      >
        Change
      </button>
      <ChangeEmailModal user={user} open={open} onClose={() => setOpen(false)} />
    </>
  );
}
