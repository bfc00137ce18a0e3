import { useState } from 'react';
import { formatPhoneNumberIntl } from 'react-phone-number-input/max';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '@offzero/shared/api/accounts';
import { currentUserQueryKey, useCurrentUser } from '../../lib/current-user';
import { errorMessage } from '../../lib/api-client';
import { Button } from '../../components/ui/button';
import { MailIcon, PhoneIcon } from '../../components/ui/icons';
import { PageHeader, PageLoadError, PageSkeleton } from '../../components/ui/page';
import { StatusTile, StatusTileGrid } from '../../components/ui/status-tile';
import { PaymentMethods } from '../../components/ui/payment-methods';
import { VerifyPhoneModal } from '../../features/auth/components/verify-phone-modal';
import { KycTile } from '../../features/kyc/components/kyc-tile';
import { RecentOrders } from '../../features/orders/components/recent-orders';
import { BankTile } from '../../features/settings/components/bank-tile';
import { PriceProvider } from '../../features/trade/price-context';
import { TradeWidget } from '../../features/trade/trade-widget';
import { W9StepForm } from '../../features/tax/components/w9-step-form';

/**
 * The dashboard (spec section 2): the account's status tiles (e-mail, phone from auth, KYC, bank from
 * settings), then the customer's recent orders beside the trade widget. It composes those features here
 * because none of them may import another.
 */
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
          <TradingSection />
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

/** The dashboard's trading half (spec section 2): Recent Orders beside the trade widget. */
function TradingSection() {
  return (
    <section
      aria-label="Trade"
      className="mt-8 grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]"
    >
      <div className="order-2 lg:order-1">
        <RecentOrders />
      </div>
      <div className="order-1 space-y-4 lg:order-2">
        <PriceProvider>
          <TradeWidget embedded taxDetailsForm={W9Step} />
        </PriceProvider>
        <div className="rounded-2xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200/80">
          <p className="mb-2 text-xs font-medium text-slate-500">We accept</p>
          <PaymentMethods />
        </div>
      </div>
    </section>
  );
}

/** The tax feature's W-9 form, as the sell flow's tax details step. */
function W9Step({ onSaved }: { onSaved: () => void }) {
  return <W9StepForm onSaved={onSaved} />;
}
