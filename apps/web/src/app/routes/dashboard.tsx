import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { User } from '@offzero/shared/api/accounts';
import { currentUserQueryKey, useCurrentUser } from '../../lib/current-user';
import { kycQueryOptions } from '../../domain/kyc';
import { useStartReads } from '../../lib/start-reads';
import { userSettingsQueryOptions } from '../../domain/user-settings';
import { errorMessage } from '../../lib/api-client';
import { Button } from '../../components/ui/button';
import { MailIcon, PhoneIcon } from '../../components/ui/icons';
import { PageHeader, PageLoadError } from '../../components/ui/page';
import { StatusTile, StatusTileGrid } from '../../components/ui/status-tile';
import { PhoneNumberDisplay } from '../../components/ui/phone-number-display';
import { KycTile } from '../../features/kyc/components/kyc-tile';
import { BankTile } from '../../features/settings/components/bank-tile';
import { NextBuyLine } from '../../features/plans/components/next-buy-line';
import { startTradeWidgetReads } from '../../features/trade/trade-widget-reads';

// The phone number rules (libphonenumber's metadata, about 50 kB gzip) load only once the customer
// opens the phone dialog, or for a verified number from outside North America.
const VerifyPhoneModal = lazy(async () => ({
  default: (await import('../../features/auth/components/verify-phone-modal')).VerifyPhoneModal,
}));
const loadTradingSection = () => import('./dashboard-trading');
const TradingSection = lazy(loadTradingSection);

/**
 * The dashboard: the account's status tiles (e-mail, phone from auth, KYC, bank from
 * settings), then the customer's recent orders beside the trade widget. It composes those features here
 * because none of them may import another.
 */
const DESCRIPTION = 'Complete the steps below to start buying and selling bitcoin.';

export default function DashboardPage() {
  const { data, error, refetch } = useCurrentUser();
  useStartReads(startDashboardReads);
  // The page's body (the tiles, Recent Orders, the trade widget) is a large render: once the profile
  // arrives it is rendered as a transition, in slices between which the browser paints and answers input.
  const user = useDeferredValue(data);

  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
      <title>Dashboard — OffZero</title>
      {error ? (
        <PageLoadError message={errorMessage(error)} onRetry={() => void refetch()} />
      ) : user === undefined ? (
        <DashboardLoading />
      ) : (
        <>
          <PageHeader
            title={user.firstName ? `Welcome, ${user.firstName}` : 'Welcome to OffZero'}
            description={DESCRIPTION}
          />
          <div className="mt-2">
            <NextBuyLine />
          </div>
          <AccountStatus user={user} />
          <DeferredTradingSection />
        </>
      )}
    </div>
  );
}

/**
 * The screen's reads, started beside the profile's: the tiles and the trade widget mount only once the
 * profile is in (and the widget once the order list is, below), so their own reads would each start a
 * round trip later.
 */
function startDashboardReads(queryClient: QueryClient, userId: string | null): void {
  void loadTradingSection();
  startTradeWidgetReads(queryClient, userId);
  if (userId === null) return;
  void queryClient.prefetchQuery(kycQueryOptions(userId));
  void queryClient.prefetchQuery(userSettingsQueryOptions(userId));
}

/**
 * The dashboard while the profile loads (and the frame the build prerenders for it): the page's own
 * description where the header will be, grey blocks for the greeting and the account's tiles.
 */
function DashboardLoading() {
  return (
    <div role="status" aria-label="Loading">
      <div className="animate-pulse">
        <div className="h-8 w-64 max-w-full rounded-lg bg-slate-200 sm:h-9" />
      </div>
      <p className="mt-1.5 text-sm text-slate-600 sm:text-base">{DESCRIPTION}</p>
      <div className="mt-6 grid animate-pulse grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <div key={index} className="h-48 rounded-2xl bg-slate-200/70" />
        ))}
      </div>
    </div>
  );
}

/** Email and Phone tiles; identity verification and bank tiles join this grid. */
function AccountStatus({ user }: { user: User }) {
  const [phoneDialogOpen, setPhoneDialogOpen] = useState(false);
  // The dialog (and the phone rules it brings) loads the first time it is opened, then stays mounted.
  const [phoneDialogUsed, setPhoneDialogUsed] = useState(false);
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
            user.phone_verified && user.phoneNumber ? (
              <PhoneNumberDisplay phone={user.phoneNumber} />
            ) : (
              'Not added yet'
            )
          }
          status="Verified"
          action={
            user.phone_verified ? undefined : (
              <Button
                size="sm"
                onClick={() => {
                  setPhoneDialogOpen(true);
                  setPhoneDialogUsed(true);
                }}
              >
                Verify Phone
              </Button>
            )
          }
        />
        <KycTile user={user} />
        <BankTile />
      </StatusTileGrid>
      {phoneDialogUsed && (
        <Suspense fallback={null}>
          <VerifyPhoneModal
            user={user}
            open={phoneDialogOpen}
            onClose={() => {
              setPhoneDialogOpen(false);
              // Read the profile again so every screen agrees with the server.
              void queryClient.invalidateQueries({ queryKey: currentUserQueryKey(user._id) });
            }}
          />
        </Suspense>
      )}
    </section>
  );
}

/**
 * The trading half (Recent Orders beside the trade widget, `dashboard-trading.tsx`): its code is fetched
 * beside the profile (`startDashboardReads`), after the page's first paint rather than before it, and it
 * mounts just after the header and tiles, in a render (and a commit) of its own, so that neither blocks
 * the browser for long; an empty block holds its place for that moment.
 */
function DeferredTradingSection() {
  const mounted = useDeferredValue(true, false);
  const placeholder = <div className="mt-8 h-96" />;
  return mounted ? (
    <Suspense fallback={placeholder}>
      <TradingSection />
    </Suspense>
  ) : (
    placeholder
  );
}
