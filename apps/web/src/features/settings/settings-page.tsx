import { useCurrentUser } from '../../lib/current-user';
import { errorMessage } from '../../lib/api-client';
import { PageHeader, PageLoadError, PageSkeleton } from '../../components/ui/page';
import { SettingsGrid } from './components/settings-card';
import { ProfileCard } from './components/profile-card';

/** Settings (spec section 2): a grid of cards; the profile first, the payment and referral cards after. */
export default function SettingsPage() {
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
            <SettingsGrid>
              <ProfileCard user={user} />
            </SettingsGrid>
          </div>
        </>
      )}
    </div>
  );
}
