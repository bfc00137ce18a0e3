import type { ReactNode } from 'react';
import type { User } from '@offzero/shared/api/accounts';
import type { UserSettings } from '@offzero/shared/api/user-settings';
import { useCurrentUser } from '../../lib/current-user';
import { errorMessage } from '../../lib/api-client';
import { Button } from '../../components/ui/button';
import { PageHeader, PageLoadError, PageSkeleton } from '../../components/ui/page';
import { SettingsGrid } from '../../components/ui/settings-card';
import { ProfileCard } from './components/profile-card';
import { BankAccountCard, WalletCard, ZelleCard } from './components/payment-cards';
import { NotificationsCard } from './components/notifications-card';
import { LimitsCard } from './components/limits-card';
import { useUserSettings } from '../../domain/user-settings';

/** Cards other features add after the payment and notification cards (the referral card). */
export type MoreSettingsCards = (settings: UserSettings) => ReactNode;
/** What another feature puts beside the phone number or e-mail (the changes, from the auth feature). */
export type ContactAction = (user: User) => ReactNode;

/**
 * Settings: a grid of cards; the profile first, the payment cards after, then the
 * cards the composing route adds (`moreCards`).
 */
export function SettingsPage({
  moreCards,
  phoneAction,
  emailAction,
}: {
  moreCards?: MoreSettingsCards;
  phoneAction?: ContactAction;
  emailAction?: ContactAction;
}) {
  const { data: user, isPending, error, refetch } = useCurrentUser();
  return (
    <div className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
      <title>Settings — OffZero</title>
      {isPending ? (
        <PageSkeleton />
      ) : error ? (
        <PageLoadError message={errorMessage(error)} onRetry={() => void refetch()} />
      ) : (
        <>
          <PageHeader title="Settings" description="Your profile, payment details and preferences." />
          <div className="mt-6">
            <SettingsCards
              user={user}
              moreCards={moreCards}
              phoneAction={phoneAction}
              emailAction={emailAction}
            />
          </div>
        </>
      )}
    </div>
  );
}

function SettingsCards({
  user,
  moreCards,
  phoneAction,
  emailAction,
}: {
  user: User;
  moreCards?: MoreSettingsCards;
  phoneAction?: ContactAction;
  emailAction?: ContactAction;
}) {
  const settings = useUserSettings();
  return (
    <SettingsGrid>
      <ProfileCard user={user} phoneAction={phoneAction?.(user)} emailAction={emailAction?.(user)} />
      {settings.isPending ? (
        Array.from({ length: 5 }, (_, index) => <CardSkeleton key={index} />)
      ) : settings.isError ? (
        // A failed settings fetch is only logged; here the cards wait for a retry.
        <div
          data-testid="settings-unavailable"
          className="flex flex-col items-start gap-3 rounded-2xl bg-white p-5 text-sm text-slate-600 shadow-sm ring-1 ring-slate-200/80 sm:p-6"
        >
          <p>Your payment details and preferences are not available right now.</p>
          <Button variant="outline" size="sm" onClick={() => void settings.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <>
          <BankAccountCard bankAccount={settings.data.bankAccount} />
          <ZelleCard zelleEmail={settings.data.zelleEmail} />
          <WalletCard walletAddress={settings.data.walletAddress} />
          <NotificationsCard
            receiveEmail={settings.data.receiveEmail}
            receiveSMS={settings.data.receiveSMS}
          />
          <LimitsCard />
          {moreCards?.(settings.data)}
        </>
      )}
    </SettingsGrid>
  );
}

function CardSkeleton() {
  return (
    <div
      aria-hidden="true"
      className="h-40 animate-pulse rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200/80"
    >
      <div className="h-4 w-40 rounded bg-slate-200" />
      <div className="mt-3 h-3 w-64 max-w-full rounded bg-slate-100" />
      <div className="mt-8 h-4 w-48 rounded bg-slate-200" />
    </div>
  );
}
