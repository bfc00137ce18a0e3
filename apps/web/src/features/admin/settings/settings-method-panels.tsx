import { TextField } from '../../../components/ui/text-field';
import { Panel } from '../components/blocks';
import type { SettingsEditorState } from './use-settings-editor';

/** The payment methods: each one's switch and the details customers pay to. */
export function PaymentMethodPanels({ editor }: { editor: SettingsEditorState }) {
  return (
    <>
      <Panel title="PayPal and cards" testId="settings-paypal">
        {editor.methodSwitch(
          'paypal',
          'Accept PayPal and cards',
          'Buy orders only. Captured by the server through PayPal.',
        )}
      </Panel>

      <Panel title="Zelle" testId="settings-zelle">
        {editor.sectionError('zelle')}
        {editor.methodSwitch(
          'zelle',
          'Accept and pay by Zelle',
          'Customers pay buys to this address; sells are paid to theirs.',
        )}
        <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
          <TextField
            label="Zelle address customers pay to"
            type="email"
            {...editor.field('zelle', 'payment_address')}
          />
          <TextField
            label="Bank charges (USD)"
            inputMode="decimal"
            {...editor.field('zelle', 'bank_charges')}
          />
        </div>
      </Panel>

      <Panel title="ACH transfer" testId="settings-ach">
        {editor.sectionError('ach')}
        {editor.methodSwitch('ach', 'Accept and pay by ACH', 'US domestic bank transfers.')}
        <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField label="Account holder" {...editor.field('ach', 'account_holder')} />
          <TextField label="Account number" {...editor.field('ach', 'account_number')} />
          <TextField label="Routing number" inputMode="numeric" {...editor.field('ach', 'routing_number')} />
          <TextField
            label="Bank charges (USD)"
            inputMode="decimal"
            {...editor.field('ach', 'bank_charges')}
          />
          <TextField
            label="Bank name and address"
            className="sm:col-span-2"
            {...editor.field('ach', 'bank_address')}
          />
        </div>
      </Panel>

      <Panel title="Wire transfer" testId="settings-wire">
        {editor.sectionError('wire')}
        {editor.methodSwitch('wire', 'Accept and pay by wire', 'Domestic and international wires.')}
        <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField label="Account holder" {...editor.field('wire', 'account_holder')} />
          <TextField label="Account number" {...editor.field('wire', 'account_number')} />
          <TextField label="SWIFT code" {...editor.field('wire', 'swift_code')} />
          <TextField
            label="Bank charges (USD)"
            inputMode="decimal"
            {...editor.field('wire', 'bank_charges')}
          />
          <TextField
            label="Bank name and address"
            className="sm:col-span-2"
            {...editor.field('wire', 'bank_address')}
          />
        </div>
      </Panel>
    </>
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
        <TextField label="PayPal" {...editor.field('arrival', 'paypal')} />
        <TextField label="Zelle" {...editor.field('arrival', 'zelle')} />
        <TextField label="ACH transfer" {...editor.field('arrival', 'ach')} />
        <TextField label="Wire transfer" {...editor.field('arrival', 'wire')} />
      </div>
    </Panel>
  );
}
