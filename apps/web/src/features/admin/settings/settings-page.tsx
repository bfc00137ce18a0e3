import { useState, type ReactNode } from 'react';
import type { FieldPath } from 'react-hook-form';
import type { FullGlobalSettings } from '@offzero/shared/api/global-settings';
import {
  formFromSettings,
  isFormChanged,
  settingsFormFieldsSchema,
  settingsFormSchema,
  type SettingsErrors,
  type SettingsForm,
} from '@offzero/shared/api/admin-settings';
import { RAILS_WITH_SETTINGS, type RailIdWithSettings, type RailSettings } from '@offzero/shared/rails/rails';
import { errorMessage } from '../../../lib/api-client';
import { applyServerErrors, useZodForm } from '../../../lib/forms';
import { Button } from '../../../components/ui/button';
import { PageLoadError, PageSkeleton } from '../../../components/ui/page';
import { Switch } from '../../../components/ui/switch';
import { TextField } from '../../../components/ui/text-field';
import { AlertIcon, CheckIcon } from '../../../components/ui/icons';
import { useAdminSettings } from '../api/get-settings';
import { useSaveSettings } from '../api/save-settings';
import { AdminPageHeader, Panel } from '../components/blocks';

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

type Section = keyof SettingsForm;

/** Every field's path ('order.platform_fees', 'limits.tier1.day'): the server's message keys too. */
const FIELD_PATHS = Object.entries(settingsFormFieldsSchema.shape).flatMap(([section, fields]) =>
  'unwrap' in fields
    ? // The limits group: one level deeper, tier then window.
      Object.entries(fields.unwrap().shape).flatMap(([tier, windows]) =>
        Object.keys(windows.shape).map((field) => `${section}.${tier}.${field}`),
      )
    : Object.keys(fields.shape).map((field) => `${section}.${field}`),
);

/** The grid of a rail's settings fields (the registry says which). */
const COLUMNS: Record<RailSettings['columns'], string> = {
  halves: 'sm:grid-cols-2',
  'wide-narrow': 'sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]',
};

const LIMIT_FIELDS = [
  { period: 'day', label: '24 hours' },
  { period: 'week', label: '7 days' },
  { period: 'month', label: '30 days' },
] as const;

function SettingsEditor({ saved }: { saved: FullGlobalSettings }) {
  const form = useZodForm(settingsFormSchema, { defaultValues: formFromSettings(saved) });
  // The server's messages about a whole section or the whole request, which no single field shows.
  const [notes, setNotes] = useState<SettingsErrors>({});
  const [status, setStatus] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const save = useSaveSettings();
  const values = form.watch();
  const changed = isFormChanged(values, saved);

  /** An edit takes away the field's message, its section's note and the last save's outcome. */
  const edited = (section: Section) => {
    if (notes[section]) setNotes(({ [section]: _section, ...rest }) => rest);
    setStatus(null);
  };

  const field = <S extends Section>(section: S, name: keyof SettingsForm[S] & string) => ({
    ...form.textField(`${section}.${name}` as FieldPath<SettingsForm>, () => edited(section)),
    autoComplete: 'off',
  });

  const onSubmit = form.handleSubmit(
    (settings) => {
      setNotes({});
      save.mutate(settings, {
        onSuccess: (answer) => {
          form.reset(formFromSettings(answer.settings));
          setStatus({ tone: 'success', text: answer.message });
        },
        onError: (error) => {
          setNotes(applyServerErrors(form, error, FIELD_PATHS));
          setStatus({ tone: 'error', text: errorMessage(error, 'Could not save the settings.') });
          focusFirstError();
        },
      });
    },
    () => {
      setNotes({});
      setStatus({ tone: 'error', text: 'Some fields need attention; nothing was saved.' });
      focusFirstError();
    },
  );

  const discard = () => {
    form.reset(formFromSettings(saved));
    setNotes({});
    setStatus(null);
  };

  const sectionError = (section: Section) =>
    notes[section] ? (
      <p role="alert" className="mb-3 rounded-xl bg-red-50 p-3 text-sm text-red-700">
        {notes[section]}
      </p>
    ) : null;

  const methodSwitch = (section: RailIdWithSettings, label: string, description: ReactNode) => (
    <Switch
      label={label}
      description={description}
      checked={values[section].is_active}
      onChange={(next) => {
        form.setValue(`${section}.is_active`, next);
        form.clearOnEdit(`${section}.is_active`);
        edited(section);
      }}
      testId={`switch-${section}`}
    />
  );

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
        <Panel title="Orders and fees" testId="settings-order">
          {sectionError('order')}
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField
              label="Platform fee (%)"
              inputMode="decimal"
              hint="Of each order’s value."
              {...field('order', 'platform_fees')}
            />
            <TextField
              label="Quote lock (seconds)"
              inputMode="numeric"
              hint="How long a confirmed buy quote holds."
              {...field('order', 'order_session_timeout')}
            />
            <TextField
              label="Minimum order (USD)"
              inputMode="decimal"
              {...field('order', 'min_order_size')}
            />
            <TextField
              label="Maximum order (USD)"
              inputMode="decimal"
              {...field('order', 'max_order_size')}
            />
            {saved.order.four_eyes_usd !== undefined && (
              <TextField
                label="Four-eyes threshold (USD)"
                inputMode="decimal"
                hint="Marking a buy paid or paying a sell out at or above this needs a second admin."
                {...field('order', 'four_eyes_usd')}
              />
            )}
            {saved.order.proof_required_usd !== undefined && (
              <TextField
                label="Ownership proof from (USD)"
                inputMode="decimal"
                hint="A buy at or above this is paid out only to an address the customer proved they own (BIP-322). 0: never required."
                {...field('order', 'proof_required_usd')}
              />
            )}
          </div>
        </Panel>

        <Panel title="Referral programme" testId="settings-referral">
          {sectionError('referral')}
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <TextField
              label="Reward (% of platform fee)"
              inputMode="decimal"
              hint="Paid to the referrer when a referred customer’s order completes."
              {...field('referral', 'reward')}
            />
            <TextField
              label="Eligible trades"
              inputMode="numeric"
              hint="The first this many orders of each referred customer earn a reward."
              {...field('referral', 'trades_eligible')}
            />
          </div>
        </Panel>

        {saved.limits !== undefined && (
          <Panel title="Trading limits per tier (USD)" testId="settings-limits">
            {sectionError('limits')}
            <p className="mb-4 text-sm text-slate-500">
              What one customer may trade, buys and sells together, over rolling windows. Customers start in
              tier 1; move one to tier 2 from their customer page.
            </p>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
              {(['tier1', 'tier2'] as const).flatMap((tier) =>
                LIMIT_FIELDS.map(({ period, label }) => (
                  <TextField
                    key={`${tier}.${period}`}
                    label={`Tier ${tier.slice(-1)}, ${label}`}
                    inputMode="decimal"
                    {...form.textField(`limits.${tier}.${period}`, () => edited('limits'))}
                    autoComplete="off"
                  />
                )),
              )}
            </div>
          </Panel>
        )}

        {RAILS_WITH_SETTINGS.map(({ id, settings: rail }) => (
          <Panel key={id} title={rail.title} testId={`settings-${id}`}>
            {rail.fields.length > 0 && sectionError(id)}
            {methodSwitch(id, rail.switchLabel, rail.switchDescription)}
            {rail.fields.length > 0 && (
              <div className={`mt-4 grid grid-cols-1 gap-4 ${COLUMNS[rail.columns]}`}>
                {rail.fields.map((railField) => (
                  <TextField
                    key={railField.name}
                    label={railField.label}
                    type={railField.type}
                    inputMode={railField.inputMode}
                    className={railField.wide ? 'sm:col-span-2' : undefined}
                    // A field the registry names in this group (its test checks them against the form).
                    {...field(id, railField.name as keyof SettingsForm[RailIdWithSettings])}
                  />
                ))}
              </div>
            )}
          </Panel>
        ))}

        <Panel title="When it arrives" testId="settings-arrival">
          {sectionError('arrival')}
          <p className="mb-4 text-sm text-slate-600">
            What customers read at checkout and on their orders about when their bitcoin or dollars arrive,
            for each payment method.
          </p>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            {RAILS_WITH_SETTINGS.map(({ id, settings: rail }) => (
              <TextField key={id} label={rail.arrivalLabel} {...field('arrival', id)} />
            ))}
          </div>
        </Panel>
      </div>

      <div className="sticky bottom-0 z-20 -mx-4 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6 lg:-mx-8 lg:px-8">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p role="status" aria-live="polite" className="min-h-5 text-sm" data-testid="settings-status">
            {status ? (
              <span
                className={`inline-flex items-start gap-1.5 ${status.tone === 'success' ? 'text-emerald-700' : 'text-red-700'}`}
              >
                {status.tone === 'success' ? (
                  <CheckIcon className="mt-0.5 size-4 shrink-0" />
                ) : (
                  <AlertIcon className="mt-0.5 size-4 shrink-0" />
                )}
                {status.text}
              </span>
            ) : changed ? (
              <span className="text-amber-700">You have unsaved changes.</span>
            ) : (
              <span className="text-slate-500">All changes saved.</span>
            )}
          </p>
          <div className="flex gap-2">
            <Button variant="outline" onClick={discard} disabled={!changed || save.isPending}>
              Discard
            </Button>
            <Button
              type="submit"
              loading={save.isPending}
              disabled={!changed}
              className="flex-1 sm:flex-none"
            >
              Save settings
            </Button>
          </div>
        </div>
      </div>
    </form>
  );
}

function focusFirstError() {
  // After React has drawn the messages: the first invalid field takes the focus.
  requestAnimationFrame(() => {
    document.querySelector<HTMLElement>('form[aria-label="Global settings"] [aria-invalid="true"]')?.focus();
  });
}
