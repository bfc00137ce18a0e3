import { useState } from 'react';
import { formatPhoneNumberIntl } from 'react-phone-number-input/max';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '@offzero/shared/api/accounts';
import { currentUserQueryKey, useCurrentUser } from '../../lib/current-user';
import { errorMessage } from '../../lib/api-client';
import { Button } from '../../components/ui/button';
import { MailIcon, PhoneIcon } from '../../components/ui/icons';
import { PageHeader, PageLoadError, PageSkeleton } from '../../components/ui/page';
import { StatusTile, StatusTileGrid } from './components/status-tile';
import { VerifyPhoneModal } from './components/verify-phone-modal';
import { DashboardTradingSection } from '../trade/dashboard-trading-section';
import { KycTile } from './components/kyc-tile';
import { BankTile } from './components/bank-tile';

export default function DashboardPage() {
  const { data: user, isPending, error, refetch } = useCurrentUser();

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
      <title>Dashboard — OffZero</title>
      {isPending ? (
        <PageSkeleton />
      ) : error ? (
        <PageLoadError message={errorMessage(error)} onRetry={() => void refetch()} />
      ) : (
        <>
          <PageHeader
            title={user.firstName ? `Welcome, ${user.firstName}` : 'Welcome to OffZero'}
            description="Complete the steps below to start buying and selling bitcoin."
          />
          <AccountStatus user={user} />
          <DashboardTradingSection />
        </>
      )}
    </div>
  );
}

/** Email and Phone tiles; identity verification and bank tiles join this grid. */
function AccountStatus({ user }: { user: User }) {
  const [phoneDialogOpen, setPhoneDialogOpen] = useState(false);
  const queryClient = useQueryClient();

  return (
    <section aria-labelledby="account-status" className="mt-6">
      <h2 id="account-status" className="sr-only">
        Account status
      </h2>
      <StatusTileGrid>
        <StatusTile
          testId="status-email"
          title="Email"
          icon={MailIcon}
          done={user.email_verified}
          detail={user.email}
          status={user.email_verified ? 'Verified' : 'Verify Email'}
        />
        <StatusTile
          testId="status-phone"
          title="Phone"
          icon={PhoneIcon}
          done={user.phone_verified}
          detail={
            user.phone_verified && user.phoneNumber
              ? formatPhoneNumberIntl(user.phoneNumber) || user.phoneNumber
              : 'Not added yet'
          }
          status="Verified"
          action={
            user.phone_verified ? undefined : (
              <Button size="sm" onClick={() => setPhoneDialogOpen(true)}>
                Verify Phone
              </Button>
            )
          }
        />
        <KycTile user={user} />
        <BankTile />
      </StatusTileGrid>
      <VerifyPhoneModal
        user={user}
        open={phoneDialogOpen}
        onClose={() => {
          setPhoneDialogOpen(false);
          // Read the profile again so every screen agrees with the server.
          void queryClient.invalidateQueries({ queryKey: currentUserQueryKey(user._id) });
        }}
      />
    </section>
  );
}
