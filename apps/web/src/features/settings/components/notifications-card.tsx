import { toast } from '../../../lib/toast';
import { serverMessageOr } from '../../../lib/api-client';
import { Switch } from '../../../components/ui/switch';
import { useSaveSetting } from '../../../domain/user-settings';
import { SettingsCard } from '../../../components/ui/settings-card';

export const EMAIL_PREFERENCE_ERROR = 'Error updating email preference';
export const SMS_PREFERENCE_ERROR = 'Error updating SMS preference';

/**
 * E-mail and SMS notifications. A switch flips only once the server answered 200:
 * until then it keeps showing the stored value, disabled, with a spinner.
 */
export function NotificationsCard({
  receiveEmail,
  receiveSMS,
}: {
  receiveEmail: boolean;
  receiveSMS: boolean;
}) {
  return (
    <SettingsCard
      title="Notifications"
      description="How we tell you about your orders."
      testId="notifications-card"
    >
      <div className="divide-y divide-slate-100">
        <PreferenceSwitch
          kind="receiveEmail"
          label="Email notifications"
          description="Order updates and receipts by email."
          checked={receiveEmail}
          fallbackError={EMAIL_PREFERENCE_ERROR}
          testId="toggle-email"
        />
        <PreferenceSwitch
          kind="receiveSMS"
          label="SMS notifications"
          description="Order updates by text message."
          checked={receiveSMS}
          fallbackError={SMS_PREFERENCE_ERROR}
          testId="toggle-sms"
        />
      </div>
    </SettingsCard>
  );
}

function PreferenceSwitch({
  kind,
  label,
  description,
  checked,
  fallbackError,
  testId,
}: {
  kind: 'receiveEmail' | 'receiveSMS';
  label: string;
  description: string;
  checked: boolean;
  fallbackError: string;
  testId: string;
}) {
  const save = useSaveSetting();
  return (
    <Switch
      label={label}
      description={description}
      checked={checked}
      busy={save.isPending}
      testId={testId}
      onChange={(next) =>
        save.mutate(kind === 'receiveEmail' ? { receiveEmail: next } : { receiveSMS: next }, {
          onSuccess: (answer) => toast.success(answer.message),
          onError: (error) => toast.error(serverMessageOr(error, fallbackError)),
        })
      }
    />
  );
}
