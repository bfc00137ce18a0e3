/**
 * Every rail once (docs/design.md, "Rails"): a way money or bitcoin moves. What customers and operators
 * see of a rail is here; enums, labels, tiles, settings forms, PDF and timeline words and the database
 * enums are derived from it. Each rail's server behaviour is in `apps/server/src/rails/<rail>/`.
 */

export type RailDirection = 'buy-funding' | 'sell-payout' | 'buy-payout' | 'sell-deposit';

/** A key of an order's `payment.receiving_in` (the details a buyer pays to, recorded on the order). */
export type ReceivingKey =
  | 'account_holder'
  | 'account_number'
  | 'bank_address'
  | 'routing_number'
  | 'swift'
  | 'payment_address'
  | 'bank_name';

/** One line of the details a buyer pays to: its label and the keys it joins (', ' between them). */
export interface ReceivingLine {
  label: string;
  keys: readonly ReceivingKey[];
}

/** One text field of the rail's group in the settings editor, in the order the editor shows them. */
export interface RailSettingsField {
  /** The field's key in the rail's settings group (`zelle.payment_address`). */
  name: string;
  label: string;
  type?: 'email';
  inputMode?: 'decimal' | 'numeric';
  /** Spans the whole row of its group. */
  wide?: boolean;
}

/**
 * The operator's settings of a rail: its group in the global settings (`settings.<id>`), named after
 * the rail, with an `is_active` switch, and its line of the "When it arrives" group (`arrival.<id>`).
 */
export interface RailSettings {
  /** The editor's panel title. */
  title: string;
  switchLabel: string;
  switchDescription: string;
  /** The group's text fields; none for a rail with a switch only. */
  fields: readonly RailSettingsField[];
  /** How the editor lays the fields out: two equal columns, or a wide one then a narrow one. */
  columns: 'halves' | 'wide-narrow';
  /** The settings fields customers pay to (copied onto the order when they pay). */
  receivingFields: readonly string[];
  /** The field with the bank charges (USD) a payout by this rail costs. */
  bankChargesField?: string;
  /** The label of the rail's line in the "When it arrives" group. */
  arrivalLabel: string;
}

export interface Rail {
  id: string;
  /** The name customers read, at the start of a sentence or on a button. */
  label: string;
  /** The name inside a sentence ("paid by wire"), where it differs from `label`. */
  labelInSentence?: string;
  /** The full name on documents (receipts, statements), where it differs from `label`. */
  documentLabel?: string;
  /** The directions the rail serves. */
  directions: readonly RailDirection[];
  /** The first "when it arrives" text, which the operator edits (rails a buy is paid by). */
  defaultArrival?: string;
  /** The operator's settings of a rail money moves by. */
  settings?: RailSettings;
  /** The details a buyer pays to, as the buy's success step lists them. */
  receiving?: readonly ReceivingLine[];
}

const BANK_CHARGES = { name: 'bank_charges', label: 'Bank charges (USD)', inputMode: 'decimal' } as const;
const BANK_LINE = { label: 'Bank', keys: ['bank_name', 'bank_address'] } as const;

export const RAILS = [
  {
    id: 'paypal',
    label: 'PayPal',
    directions: ['buy-funding'],
    defaultArrival: 'Bitcoin is sent after the payment clears.',
    settings: {
      title: 'PayPal and cards',
      switchLabel: 'Accept PayPal and cards',
      switchDescription: 'Buy orders only. Captured by the server through PayPal.',
      fields: [],
      columns: 'halves',
      receivingFields: [],
      arrivalLabel: 'PayPal',
    },
  },
  {
    id: 'zelle',
    label: 'Zelle',
    directions: ['buy-funding', 'sell-payout'],
    defaultArrival: 'Within hours of receipt.',
    settings: {
      title: 'Zelle',
      switchLabel: 'Accept and pay by Zelle',
      switchDescription: 'Customers pay buys to this address; sells are paid to theirs.',
      fields: [
        { name: 'payment_address', label: 'Zelle address customers pay to', type: 'email' },
        BANK_CHARGES,
      ],
      columns: 'wide-narrow',
      receivingFields: ['payment_address'],
      bankChargesField: 'bank_charges',
      arrivalLabel: 'Zelle',
    },
    receiving: [{ label: 'Zelle email', keys: ['payment_address'] }],
  },
  {
    id: 'ach',
    label: 'ACH',
    documentLabel: 'ACH bank transfer',
    directions: ['buy-funding', 'sell-payout'],
    defaultArrival: 'After the transfer settles, 1–3 business days.',
    settings: {
      title: 'ACH transfer',
      switchLabel: 'Accept and pay by ACH',
      switchDescription: 'US domestic bank transfers.',
      fields: [
        { name: 'account_holder', label: 'Account holder' },
        { name: 'account_number', label: 'Account number' },
        { name: 'routing_number', label: 'Routing number', inputMode: 'numeric' },
        BANK_CHARGES,
        { name: 'bank_address', label: 'Bank name and address', wide: true },
      ],
      columns: 'halves',
      receivingFields: ['account_holder', 'account_number', 'bank_address', 'routing_number'],
      bankChargesField: 'bank_charges',
      arrivalLabel: 'ACH transfer',
    },
    receiving: [
      { label: 'Account holder', keys: ['account_holder'] },
      { label: 'Account number', keys: ['account_number'] },
      { label: 'Routing number', keys: ['routing_number'] },
      BANK_LINE,
    ],
  },
  {
    id: 'wire',
    label: 'Wire',
    labelInSentence: 'wire',
    documentLabel: 'Wire transfer',
    directions: ['buy-funding', 'sell-payout'],
    defaultArrival: 'Same or next business day.',
    settings: {
      title: 'Wire transfer',
      switchLabel: 'Accept and pay by wire',
      switchDescription: 'Domestic and international wires.',
      fields: [
        { name: 'account_holder', label: 'Account holder' },
        { name: 'account_number', label: 'Account number' },
        { name: 'swift_code', label: 'SWIFT code' },
        BANK_CHARGES,
        { name: 'bank_address', label: 'Bank name and address', wide: true },
      ],
      columns: 'halves',
      receivingFields: ['account_holder', 'account_number', 'bank_address', 'swift_code'],
      bankChargesField: 'bank_charges',
      arrivalLabel: 'Wire transfer',
    },
    receiving: [
      { label: 'Account holder', keys: ['account_holder'] },
      { label: 'Account number', keys: ['account_number'] },
      { label: 'SWIFT code', keys: ['swift'] },
      BANK_LINE,
    ],
  },
  { id: 'onchain', label: 'Bitcoin', directions: ['buy-payout', 'sell-deposit'] },
] as const satisfies readonly Rail[];

export type RailId = (typeof RAILS)[number]['id'];

/** The ids of the rails that serve `D`, in registry order. */
export type RailIdServing<D extends RailDirection> = (typeof RAILS)[number] extends infer R
  ? R extends { id: infer I; directions: readonly (infer Served)[] }
    ? D extends Served
      ? I
      : never
    : never
  : never;

/** Every rail, read through the common shape (optional members included). */
export const RAIL_LIST: readonly Rail[] = RAILS;

/** The ids of the rails that serve `direction`, in registry order (an enum's values). */
export function railIdsServing<D extends RailDirection>(
  direction: D,
): readonly [RailIdServing<D>, ...RailIdServing<D>[]] {
  const ids = RAIL_LIST.filter((rail) => rail.directions.includes(direction)).map((rail) => rail.id);
  if (ids.length === 0) throw new Error(`No rail serves ${direction}.`);
  return ids as unknown as readonly [RailIdServing<D>, ...RailIdServing<D>[]];
}

/** Rails a buyer pays dollars by. */
export const BUY_FUNDING_RAILS = railIdsServing('buy-funding');
export type BuyFundingRail = RailIdServing<'buy-funding'>;
/** Rails a seller is paid dollars by. */
export const SELL_PAYOUT_RAILS = railIdsServing('sell-payout');
export type SellPayoutRail = RailIdServing<'sell-payout'>;

/** The rail of this id, if there is one. */
export function findRail(id: string | null | undefined): Rail | undefined {
  return RAIL_LIST.find((rail) => rail.id === id);
}

/** The rail's name customers read ('Wire'); an unknown id as it is. */
export function railLabel(id: string): string {
  return findRail(id)?.label ?? id;
}

/** The rail's name inside a sentence ('paid by wire'); an unknown id as it is. */
export function railLabelInSentence(id: string): string {
  const rail = findRail(id);
  return rail ? (rail.labelInSentence ?? rail.label) : id;
}

/** The rail's full name on documents ('Wire transfer'); an unknown id as it is. */
export function railDocumentLabel(id: string): string {
  const rail = findRail(id);
  return rail ? (rail.documentLabel ?? rail.label) : id;
}

/** A value for each of `ids`, keyed by id in their order (settings groups, arrival texts). */
export function byRail<const Id extends string, T>(ids: readonly Id[], value: (id: Id) => T): Record<Id, T> {
  return Object.fromEntries(ids.map((id) => [id, value(id)])) as Record<Id, T>;
}

/** Each buy-funding rail's first "when it arrives" text (the operator edits them). */
export const DEFAULT_RAIL_ARRIVAL = byRail(BUY_FUNDING_RAILS, (id) => {
  const text = findRail(id)?.defaultArrival;
  if (text === undefined) throw new Error(`The ${id} rail has no arrival text.`);
  return text;
});

/** The rails with an operator's settings group, in the order the settings editor shows them. */
export const RAILS_WITH_SETTINGS = RAIL_LIST.flatMap((rail) =>
  rail.settings ? [{ id: rail.id as BuyFundingRail, settings: rail.settings }] : [],
);
