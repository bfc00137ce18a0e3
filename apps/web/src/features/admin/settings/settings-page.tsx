import type { FullGlobalSettings } from '@offzero/shared/api/global-settings';
import { errorMessage } from '../../../lib/api-client';
import { PageLoadError, PageSkeleton } from '../../../components/ui/page';
import { useAdminSettings } from '../api/get-settings';
import { AdminPageHeader } from '../components/blocks';
import {
  LimitsPanel,
  OrderFeesPanel,
  RecurringPanel,
  ReferralPanel,
  ScamShieldPanel,
} from './settings-fee-panels';
import { ArrivalPanel, LightningPanel, PaymentMethodPanels } from './settings-method-panels';
import { SettingsSaveBar } from './settings-save-bar';
import { useSettingsEditor } from './use-settings-editor';

/** The global settings editor: fees, limits, quote lock, payment methods, referral terms, arrival timing. */
export default function SettingsPage() {
  const settings = useAdminSettings();
  return (
    <div className="space-y-5">
      <title>Settings — OffZero back office</title>
      <AdminPageHeader
        title="Settings"
        description="Fees, limits and payment methods for every new quote. Changes take effect as soon as they are saved, and are recorded in the audit log."
      />
      {settings.isPending ? (
        <PageSkeleton blocks={4} />
      ) : settings.isError ? (
        <PageLoadError message={errorMessage(settings.error)} onRetry={() => void settings.refetch()} />
      ) : (
        <SettingsEditor saved={settings.data} />
      )}
    </div>
  );
}

function SettingsEditor({ saved }: { saved: FullGlobalSettings }) {
  const editor = useSettingsEditor(saved);
  const { status, save, changed, notes, onSubmit, discard } = editor;
  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      className="space-y-5"
      aria-label="Global settings"
    >
      {notes.body && (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm text-red-700">
          {notes.body}
        </p>
      )}
      <div className="grid grid-cols-1 gap-5 xl:grid-cols-2">
        <OrderFeesPanel editor={editor} />

        <ReferralPanel editor={editor} />

        {saved.limits !== undefined && <LimitsPanel editor={editor} />}

        {saved.scam !== undefined && <ScamShieldPanel editor={editor} />}
        {saved.recurring !== undefined && <RecurringPanel editor={editor} />}

        <PaymentMethodPanels editor={editor} />

        <LightningPanel editor={editor} />

        <ArrivalPanel editor={editor} />
      </div>

      <SettingsSaveBar status={status} changed={changed} saving={save.isPending} onDiscard={discard} />
    </form>
  );
}
