import { TextField } from '../../../components/ui/text-field';
import { Panel } from '../components/blocks';
import type { SettingsEditorState } from './use-settings-editor';

const LIMIT_FIELDS = [
  { period: 'day', label: '24 hours' },
  { period: 'week', label: '7 days' },
  { period: 'month', label: '30 days' },
] as const;

/** Fees, order sizes, the quote lock and the four-eyes and ownership-proof thresholds. */
export function OrderFeesPanel({ editor }: { editor: SettingsEditorState }) {
  return (
    <Panel title="Orders and fees" testId="settings-order">
      {editor.sectionError('order')}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Platform fee (%)"
          inputMode="decimal"
          hint="Of each order’s value."
          {...editor.field('order', 'platform_fees')}
        />
        <TextField
          label="Quote lock (seconds)"
          inputMode="numeric"
          hint="How long a confirmed buy quote holds."
          {...editor.field('order', 'order_session_timeout')}
        />
        <TextField
          label="Minimum order (USD)"
          inputMode="decimal"
          {...editor.field('order', 'min_order_size')}
        />
        <TextField
          label="Maximum order (USD)"
          inputMode="decimal"
          {...editor.field('order', 'max_order_size')}
        />
        {editor.saved.order.four_eyes_usd !== undefined && (
          <TextField
            label="Four-eyes threshold (USD)"
            inputMode="decimal"
            hint="Marking a buy paid or paying a sell out at or above this needs a second admin."
            {...editor.field('order', 'four_eyes_usd')}
          />
        )}
        {editor.saved.order.proof_required_usd !== undefined && (
          <TextField
            label="Ownership proof from (USD)"
            inputMode="decimal"
            hint="A buy at or above this is paid out only to an address the customer proved they own (BIP-322). 0: never required."
            {...editor.field('order', 'proof_required_usd')}
          />
        )}
      </div>
    </Panel>
  );
}

/** What a referrer earns, and for how many of a referred customer's orders. */
export function ReferralPanel({ editor }: { editor: SettingsEditorState }) {
  return (
    <Panel title="Referral programme" testId="settings-referral">
      {editor.sectionError('referral')}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Reward (% of platform fee)"
          inputMode="decimal"
          hint="Paid to the referrer when a referred customer’s order completes."
          {...editor.field('referral', 'reward')}
        />
        <TextField
          label="Eligible trades"
          inputMode="numeric"
          hint="The first this many orders of each referred customer earn a reward."
          {...editor.field('referral', 'trades_eligible')}
        />
      </div>
    </Panel>
  );
}

/** The scam shield: new customers' daily buy cap and the cooling-off of a new payout destination. */
export function ScamShieldPanel({ editor }: { editor: SettingsEditorState }) {
  return (
    <Panel title="Scam shield" testId="settings-scam">
      {editor.sectionError('scam')}
      <p className="mb-4 text-sm text-slate-500">
        For 72 hours after identity approval, a customer may buy at most this much a day, and bitcoin to an
        address never paid before waits this many hours (0: no wait).
      </p>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="New customer daily buy cap (USD)"
          inputMode="decimal"
          {...editor.form.textField('scam.new_customer_daily_usd', () => editor.edited('scam'))}
          autoComplete="off"
        />
        <TextField
          label="Cooling-off (hours)"
          inputMode="numeric"
          {...editor.form.textField('scam.cooling_hours', () => editor.edited('scam'))}
          autoComplete="off"
        />
      </div>
    </Panel>
  );
}

/** Recurring and deposit buys: how long their bitcoin waits after the money settled. */
export function RecurringPanel({ editor }: { editor: SettingsEditorState }) {
  return (
    <Panel title="Recurring buys" testId="settings-recurring">
      {editor.sectionError('recurring')}
      <p className="mb-4 text-sm text-slate-500">
        A recurring buy's bitcoin, and a deposit buy's, is sent once its bank money settled and this many
        business days passed with no return (0: at once).
      </p>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Hold (business days)"
          inputMode="numeric"
          {...editor.form.textField('recurring.hold_days', () => editor.edited('recurring'))}
          autoComplete="off"
        />
      </div>
    </Panel>
  );
}

/** The rolling trading limits of each KYC tier. */
export function LimitsPanel({ editor }: { editor: SettingsEditorState }) {
  return (
    <Panel title="Trading limits per tier (USD)" testId="settings-limits">
      {editor.sectionError('limits')}
      <p className="mb-4 text-sm text-slate-500">
        What one customer may trade, buys and sells together, over rolling windows. Customers start in tier 1;
        move one to tier 2 from their customer page.
      </p>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        {(['tier1', 'tier2'] as const).flatMap((tier) =>
          LIMIT_FIELDS.map(({ period, label }) => (
            <TextField
              key={`${tier}.${period}`}
              label={`Tier ${tier.slice(-1)}, ${label}`}
              inputMode="decimal"
              {...editor.form.textField(`limits.${tier}.${period}`, () => editor.edited('limits'))}
              autoComplete="off"
            />
          )),
        )}
      </div>
    </Panel>
  );
}
