import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { User } from '@offzero/shared/api/accounts';
import type { Order } from '@offzero/shared/api/orders';
import { orderNumber } from '../../lib/format';
import { useOrders } from '../../domain/orders';
import { currentUserQueryKey, useCurrentUser } from '../../lib/current-user';
import { kycQueryOptions } from '../../domain/kyc';
import { useStartReads } from '../../lib/start-reads';
import { userSettingsQueryOptions } from '../../domain/user-settings';
import { errorMessage } from '../../lib/api-client';
import { Button } from '../../components/ui/button';
import { MailIcon, PhoneIcon } from '../../components/ui/icons';
import { PageHeader, PageLoadError } from '../../components/ui/page';
import { StatusTile, StatusTileGrid } from '../../components/ui/status-tile';
import { PaymentMethods } from '../../components/ui/payment-methods';
import { PhoneNumberDisplay } from '../../components/ui/phone-number-display';
import { KycTile } from '../../features/kyc/components/kyc-tile';
import { RECENT_ORDERS, RecentOrders } from '../../features/orders/components/recent-orders';
import { BankTile } from '../../features/settings/components/bank-tile';
import { NextBuyLine } from '../../features/plans/components/next-buy-line';
import { PriceProvider } from '../../features/trade/price-context';
import { startTradeWidgetReads, TradeWidget } from '../../features/trade/trade-widget';

// The phone number rules (libphonenumber's metadata, about 50 kB gzip) load only once the customer
// opens the phone dialog, or for a verified number from outside North America.
const VerifyPhoneModal = lazy(async () => ({
  default: (await import('../../features/auth/components/verify-phone-modal')).VerifyPhoneModal,
}));
import { W9Step } from '../../features/tax/components/w9-step';

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
 * The trading half mounts just after the header and tiles, in a render (and a commit) of its own, so
 * that neither blocks the browser for long; an empty block holds its place for that moment.
 */
function DeferredTradingSection() {
  const mounted = useDeferredValue(true, false);
  return mounted ? <TradingSection /> : <div className="mt-8 h-96" />;
}

/** The dashboard's trading half: Recent Orders beside the trade widget. */
function TradingSection() {
  return (
    <section
      aria-label="Trade"
      // Side by side from 1280 px: at 1024 px beside the sidebar, Recent Orders would lose its columns.
      className="mt-8 grid grid-cols-1 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_26rem]"
    >
      <div className="order-2 xl:order-1">
        <RecentOrders />
      </div>
      <div className="order-1 mx-auto w-full max-w-xl space-y-4 xl:order-2 xl:max-w-none">
        <PriceProvider>
          <ResumingTradeWidget />
        </PriceProvider>
        <div className="rounded-2xl bg-white px-4 py-3 shadow-sm ring-1 ring-slate-200/80">
          <p className="mb-2 text-xs font-medium text-slate-600">We accept</p>
          <PaymentMethods />
        </div>
      </div>
    </section>
  );
}

/**
 * The newest pending order, which the widget picks up instead of starting a second one (the tab
 * follows its type). Buys resume at checkout (or re-confirm an expired quote); sells go back
 * to the same deposit address, QR code and remaining time, all read from the server.
 */
function pendingOrderToResume(orders: readonly Order[]): Order | null {
  return orders.find((order) => order.status === 'pending') ?? null;
}

/**
 * The dashboard's trade widget, opened on the customer's pending order when there is one. The order is
 * chosen once, when the list first loads: the widget then follows the order itself (to its success
 * step, say) rather than starting over when the order stops being pending.
 */
function ResumingTradeWidget() {
  // The same query as Recent Orders beside it: one request for both.
  const orders = useOrders({ limit: RECENT_ORDERS });
  const [resumed, setResumed] = useState<Order | null | undefined>(undefined);
  const loaded = orders.data !== undefined || orders.isError;
  if (resumed === undefined && loaded) setResumed(pendingOrderToResume(orders.data ?? []));

  if (resumed === undefined) {
    return (
      <div
        role="status"
        aria-label="Loading"
        className="h-96 animate-pulse rounded-3xl bg-white shadow-sm ring-1 ring-slate-200/80"
      />
    );
  }
  return (
    <div className="space-y-2">
      {resumed && (
        <p className="px-1 text-sm text-slate-700" data-testid="resumed-order-note">
          Picking up your pending {resumed.type} order{' '}
          <span className="font-semibold text-ink-900">#{orderNumber(resumed._id)}</span>.
        </p>
      )}
      <TradeWidget embedded pendingOrder={resumed} taxDetailsForm={W9Step} />
    </div>
  );
}
