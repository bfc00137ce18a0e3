import { describe, expect, it } from 'vitest';
import { settingsFormFieldsSchema, settingsUpdateSchema } from '../api/admin-settings';
import {
  arrivalTimingSchema,
  DEFAULT_ARRIVAL_TIMING,
  fullGlobalSettingsSchema,
} from '../api/global-settings';
import {
  PAYMENT_METHODS,
  paymentMethodSchema,
  receivingInSchema,
  SELL_METHOD_MESSAGES,
  sellBankAccountSchema,
  sellMethodSchema,
} from '../api/orders';
import {
  BUY_FUNDING_RAILS,
  findRail,
  hasSettings,
  PAYMENT_RAILS,
  RAIL_LIST,
  railArrival,
  railIsOn,
  RAILS_WITH_SETTINGS,
  railDocumentLabel,
  railLabel,
  railLabelInSentence,
  SELL_PAYOUT_RAILS,
  SELL_PAYOUTS,
  SETTINGS_RAILS,
  type RailDirection,
} from './rails';

const idsServing = (direction: RailDirection) =>
  RAIL_LIST.filter((rail) => rail.directions.includes(direction)).map((rail) => rail.id);

describe('the rail registry', () => {
  it('lists each rail once, each with a label and at least one direction', () => {
    const ids = RAIL_LIST.map((rail) => rail.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rail of RAIL_LIST) {
      expect(rail.label.trim()).not.toBe('');
      expect(rail.directions.length).toBeGreaterThan(0);
    }
  });

  it('makes each direction’s enum exactly the rails that serve it, in registry order', () => {
    expect([...BUY_FUNDING_RAILS]).toEqual(idsServing('buy-funding'));
    expect([...SELL_PAYOUT_RAILS]).toEqual(idsServing('sell-payout'));
    expect(paymentMethodSchema.options).toEqual(
      RAIL_LIST.filter((rail) => rail.directions.some((d) => d === 'buy-funding' || d === 'sell-payout')).map(
        (rail) => rail.id,
      ),
    );
    expect(sellMethodSchema.options).toEqual(idsServing('sell-payout'));
    // An order's payment method holds a sell's payout rail too.
    for (const id of SELL_PAYOUT_RAILS) expect(PAYMENT_METHODS).toContain(id);
  });

  it('gives every rail with a settings group a default arrival text, and the arrival settings a line each', () => {
    for (const id of SETTINGS_RAILS) {
      expect(findRail(id)?.defaultArrival?.trim()).toBeTruthy();
      expect(DEFAULT_ARRIVAL_TIMING[id]).toBe(findRail(id)?.defaultArrival);
    }
    // Every rail a buy is paid by has a group; so does the instant payout, which only pays sells.
    expect(Object.keys(DEFAULT_ARRIVAL_TIMING)).toEqual([...BUY_FUNDING_RAILS, 'instant']);
    expect(Object.keys(arrivalTimingSchema.shape)).toEqual([...SETTINGS_RAILS]);
  });

  it('names real settings fields in every settings group', () => {
    const full = fullGlobalSettingsSchema.shape;
    const update = settingsUpdateSchema.shape;
    const form = settingsFormFieldsSchema.shape;
    for (const { id, settings } of RAILS_WITH_SETTINGS) {
      expect(PAYMENT_RAILS).toContain(id);
      const updateGroup = update[id];
      const groups = [
        full[id].shape,
        ('unwrap' in updateGroup ? updateGroup.unwrap() : updateGroup).shape,
        form[id].shape,
      ];
      const named = [
        'is_active',
        ...settings.fields.map((field) => field.name),
        ...settings.receivingFields,
        ...(settings.bankChargesField ? [settings.bankChargesField] : []),
      ];
      for (const group of groups) {
        for (const name of named) expect(Object.keys(group), `${id}.${name}`).toContain(name);
        // The editor shows every field of the group: the switch and the text fields.
        expect(Object.keys(group).sort()).toEqual(
          ['is_active', ...settings.fields.map((field) => field.name)].sort(),
        );
      }
      expect(Object.keys(full.arrival.shape)).toContain(id);
      expect(settings.arrivalLabel.trim()).not.toBe('');
    }
    // Every method switch in the settings belongs to a rail with a settings group, but Lightning's:
    // its switch and satoshi caps have no bank charges nor arrival line, and their own editor panel.
    const switches = Object.entries(full).filter(
      ([, group]) => 'shape' in group && 'is_active' in (group.shape as object),
    );
    expect(switches.map(([key]) => key)).toEqual([...RAILS_WITH_SETTINGS.map(({ id }) => id), 'lightning']);
  });

  it('gives every rail a sell is paid out by its needed detail, message and lines', () => {
    const sellable = Object.keys(sellBankAccountSchema.shape);
    for (const id of SELL_PAYOUT_RAILS) {
      const payout = SELL_PAYOUTS[id];
      expect(SELL_METHOD_MESSAGES[id]).toBe(payout.missingDetailsMessage);
      expect(sellable).toContain(payout.requires);
      expect(payout.lines.map((line) => line.key)).toContain(payout.requires);
      for (const line of payout.lines) expect(sellable).toContain(line.key);
    }
  });

  it('keeps a rail without a settings group always on, with the registry’s arrival text', () => {
    const switches = Object.fromEntries(SETTINGS_RAILS.map((id) => [id, { is_active: false }]));
    for (const id of PAYMENT_RAILS) {
      expect(railIsOn(switches as Parameters<typeof railIsOn>[0], id)).toBe(!hasSettings(id));
      const arrival = railArrival({ ...DEFAULT_ARRIVAL_TIMING, [id]: 'Soon.' }, id);
      expect(arrival).toBe(hasSettings(id) ? 'Soon.' : findRail(id)?.defaultArrival);
    }
  });

  it('shows a buyer only details an order records', () => {
    const recorded = Object.keys(receivingInSchema.shape);
    for (const rail of RAIL_LIST) {
      for (const line of rail.receiving ?? []) {
        expect(line.label.trim()).not.toBe('');
        for (const key of line.keys) expect(recorded).toContain(key);
      }
    }
  });

  it('reads each rail’s names, and an unknown id as it is', () => {
    expect(RAIL_LIST.map((rail) => railLabel(rail.id))).toEqual([
      'PayPal',
      'Zelle',
      'ACH',
      'Wire',
      'Instant bank transfer',
      'Bitcoin',
      'Lightning',
    ]);
    expect(railLabelInSentence('instant')).toBe('instant bank transfer');
    expect(BUY_FUNDING_RAILS.map(railLabelInSentence)).toEqual(['PayPal', 'Zelle', 'ACH', 'wire']);
    expect(BUY_FUNDING_RAILS.map(railDocumentLabel)).toEqual([
      'PayPal',
      'Zelle',
      'ACH bank transfer',
      'Wire transfer',
    ]);
    expect(railLabel('cheque')).toBe('cheque');
    expect(railLabelInSentence('cheque')).toBe('cheque');
    expect(railDocumentLabel('cheque')).toBe('cheque');
  });
});
