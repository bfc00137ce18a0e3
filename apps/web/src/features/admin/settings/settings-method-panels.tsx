import type { SettingsForm } from '@offzero/shared/api/admin-settings';
import { RAILS_WITH_SETTINGS, type RailIdWithSettings, type RailSettings } from '@offzero/shared/rails/rails';
import { TextField } from '../../../components/ui/text-field';
import { Panel } from '../components/blocks';
import type { SettingsEditorState } from './use-settings-editor';

/** The grid of a rail's settings fields (the registry says which). */
const COLUMNS: Record<RailSettings['columns'], string> = {
  halves: 'sm:grid-cols-2',
  'wide-narrow': 'sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]',
};

/** The payment methods: each rail's switch and the details customers pay to, as the rail registry lists them. */
export function PaymentMethodPanels({ editor }: { editor: SettingsEditorState }) {
  return (
    <>
      {RAILS_WITH_SETTINGS.map(({ id, settings: rail }) => (
        <Panel key={id} title={rail.title} testId={`settings-${id}`}>
          {rail.fields.length > 0 && editor.sectionError(id)}
          {editor.methodSwitch(id, rail.switchLabel, rail.switchDescription)}
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
                  {...editor.field(id, railField.name as keyof SettingsForm[RailIdWithSettings])}
                />
              ))}
            </div>
          )}
        </Panel>
      ))}
    </>
  );
}

/** Lightning's switch and caps in satoshis (docs/design.md, "Lightning"): its own group, not a bank rail's. */
export function LightningPanel({ editor }: { editor: SettingsEditorState }) {
  return (
    <Panel title="Lightning" testId="settings-lightning">
      {editor.sectionError('lightning')}
      {editor.methodSwitch(
        'lightning',
        'Sell and pay out by Lightning',
        'Sells may be paid to a Lightning invoice, and buys paid out to a Lightning invoice or address, at once from our node.',
      )}
      <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-3">
        <TextField
          label="Largest Lightning sell (sats)"
          inputMode="numeric"
          {...editor.field('lightning', 'max_order_sats')}
        />
        <TextField
          label="Largest Lightning payout (sats)"
          inputMode="numeric"
          {...editor.field('lightning', 'max_payout_sats')}
        />
        <TextField
          label="Lightning payouts per day (sats)"
          inputMode="numeric"
          {...editor.field('lightning', 'daily_payout_sats')}
        />
      </div>
    </Panel>
  );
}

/** What customers read about when their bitcoin or dollars arrive, per payment method. */
export function ArrivalPanel({ editor }: { editor: SettingsEditorState }) {
  return (
    <Panel title="When it arrives" testId="settings-arrival">
      {editor.sectionError('arrival')}
      <p className="mb-4 text-sm text-slate-600">
        What customers read at checkout and on their orders about when their bitcoin or dollars arrive, for
        each payment method.
      </p>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {RAILS_WITH_SETTINGS.map(({ id, settings: rail }) => (
          <TextField key={id} label={rail.arrivalLabel} {...editor.field('arrival', id)} />
        ))}
      </div>
    </Panel>
  );
}
