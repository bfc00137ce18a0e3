import { useState, type ReactNode } from 'react';
import type { User } from '@offzero/shared/api/accounts';
import { VerifiedBadge } from '../../../components/ui/badge';
import { PhoneNumberDisplay } from '../../../components/ui/phone-number-display';
import { DetailRow, SettingsCard } from '../../../components/ui/settings-card';
import { EditProfileModal } from './edit-profile-modal';

const notSet = <span className="font-normal text-slate-500">Not set</span>;

/** Personal information: names (editable), e-mail and phone with their verified state (read-only). */
export function ProfileCard({
  user,
  phoneAction,
  emailAction,
}: {
  user: User;
  phoneAction?: ReactNode;
  emailAction?: ReactNode;
}) {
  const [editing, setEditing] = useState(false);

  return (
    <SettingsCard
      title="Personal information"
      description="Your name as it appears on your account."
      onEdit={() => setEditing(true)}
      editLabel="Edit personal information"
      testId="profile-card"
    >
      <dl className="divide-y divide-slate-100">
        <DetailRow label="First name">{user.firstName || notSet}</DetailRow>
        <DetailRow label="Last name">{user.lastName || notSet}</DetailRow>
        <DetailRow label="Email">
          <span className="min-w-0 break-all">{user.email}</span>
          <VerifiedBadge verified={user.email_verified} />
          {emailAction}
        </DetailRow>
        <DetailRow label="Phone">
          {user.phoneNumber ? (
            <span className="whitespace-nowrap">
              <PhoneNumberDisplay phone={user.phoneNumber} />
            </span>
          ) : (
            notSet
          )}
          <VerifiedBadge verified={user.phone_verified} />
          {phoneAction}
        </DetailRow>
      </dl>
      <EditProfileModal user={user} open={editing} onClose={() => setEditing(false)} />
    </SettingsCard>
  );
}
