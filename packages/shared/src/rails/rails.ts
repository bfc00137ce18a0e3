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

/**
 * A detail of the customer's own settings that a sell's payout goes to, by its name in the sell
 * order's `bankAccount` (`sellBankAccountSchema`).
 */
export type PayoutDetailKey =
  'zelleEmail' | 'account_name' | 'account_number' | 'bank_name' | 'address' | 'routing_number' | 'swift';

/** What a sell paid out on the rail needs of the customer's own details, and shows of them. */
export interface RailSellPayout {
  /** The detail the rail cannot pay without (the product specification's payout-method check). */
  requires: PayoutDetailKey;
  /** What the customer reads when their settings lack it. */
  missingDetailsMessage: string;
  /** The customer's details the payout goes to, as the sell confirmation lists them. */
  lines: readonly { label: string; key: PayoutDetailKey }[];
}

export interface Rail {
  id: string;
  /** The name customers read, at the start of a sentence or on a button. */
  label: string;
  /** The name inside a sentence ("paid by wire"), where it differs from `label`. */
  labelInSentence?: string;
  /** The full name on documents (receipts, statements), where it differs from `label`. */
  documentLabel?: string;
  /** The article before the name inside a sentence, where it is not 'a' ('an ACH payout'). */
  article?: 'an';
  /** The directions the rail serves. */
  directions: readonly RailDirection[];
  /**
   * When the money arrives: the first text of the operator's "When it arrives" line for a rail with a
   * settings group, the text itself for a rail without one. Every rail dollars move by has one.
   */
  defaultArrival?: string;
  /**
   * The operator's settings of a rail money moves by. A rail without a group is always on and
   * charges nothing, and needs no settings columns.
   */
  settings?: RailSettings;
  /** The details a buyer pays to, as the buy's success step lists them. */
  receiving?: readonly ReceivingLine[];
  /** For a rail a sell is paid out by: what it needs of the customer's details. */
  sellPayout?: RailSellPayout;
}

const BANK_CHARGES = { name: 'bank_charges', label: 'Bank charges (USD)', inputMode: 'decimal' } as const;
const BANK_LINE = { label: 'Bank', keys: ['bank_name', 'bank_address'] } as const;
/** The customer's own bank account, as the sell confirmation lists it before the rail's code. */
const OWN_BANK_LINES = [
  { label: 'Account holder', key: 'account_name' },
  { label: 'Account number', key: 'account_number' },
  { label: 'Bank name', key: 'bank_name' },
  { label: 'Bank address', key: 'address' },
] as const;

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
    sellPayout: {
      requires: 'zelleEmail',
      missingDetailsMessage: 'Add Zelle payment email in settings.',
      lines: [{ label: 'Zelle email', key: 'zelleEmail' }],
    },
  },
  {
    id: 'ach',
    label: 'ACH',
    documentLabel: 'ACH bank transfer',
    article: 'an',
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
    sellPayout: {
      requires: 'routing_number',
      missingDetailsMessage: 'Add ACH transfer details in settings.',
      lines: [...OWN_BANK_LINES, { label: 'Routing number', key: 'routing_number' }],
    },
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
    sellPayout: {
      requires: 'swift',
      missingDetailsMessage: 'Add Wire transfer details in settings.',
      lines: [...OWN_BANK_LINES, { label: 'SWIFT code', key: 'swift' }],
    },
  },
  {
    id: 'instant',
    label: 'Instant bank transfer',
    labelInSentence: 'instant bank transfer',
    article: 'an',
    directions: ['sell-payout'],
    defaultArrival: 'Arrives in seconds, any day and hour.',
    settings: {
      title: 'Instant bank transfer (RTP, FedNow)',
      switchLabel: 'Pay sells instantly',
      switchDescription:
        'Sells are paid through the bank’s API in seconds, to customers whose bank is on RTP or FedNow.',
      fields: [
        BANK_CHARGES,
        { name: 'max_payout', label: 'Largest instant payout (USD)', inputMode: 'decimal' },
      ],
      columns: 'halves',
      receivingFields: [],
      bankChargesField: 'bank_charges',
      arrivalLabel: 'Instant bank transfer',
    },
    sellPayout: {
      requires: 'routing_number',
      missingDetailsMessage: 'Add ACH transfer details in settings.',
      lines: [...OWN_BANK_LINES, { label: 'Routing number', key: 'routing_number' }],
    },
  },
  { id: 'onchain', label: 'Bitcoin', directions: ['buy-payout', 'sell-deposit'] },
  // Its switch and caps are the settings group `lightning` (docs/design.md, "Lightning"), counted in
  // satoshis, not a bank rail's group.
  { id: 'lightning', label: 'Lightning', directions: ['buy-payout', 'sell-deposit'] },
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

/** The ids of the rails that serve any of `directions`, in registry order (an enum's values). */
export function railIdsServing<D extends RailDirection>(
  ...directions: [D, ...D[]]
): readonly [RailIdServing<D>, ...RailIdServing<D>[]] {
  const ids = RAIL_LIST.filter((rail) => directions.some((d) => rail.directions.includes(d))).map(
    (rail) => rail.id,
  );
  if (ids.length === 0) throw new Error(`No rail serves ${directions.join(' or ')}.`);
  return ids as unknown as readonly [RailIdServing<D>, ...RailIdServing<D>[]];
}

/** Rails a buyer pays dollars by. */
export const BUY_FUNDING_RAILS = railIdsServing('buy-funding');
export type BuyFundingRail = RailIdServing<'buy-funding'>;
/** Rails a seller is paid dollars by. */
export const SELL_PAYOUT_RAILS = railIdsServing('sell-payout');
export type SellPayoutRail = RailIdServing<'sell-payout'>;
/** Rails dollars move by: an order's payment method, the rail a buy is paid by or a sell paid out by. */
export const PAYMENT_RAILS = railIdsServing('buy-funding', 'sell-payout');
export type PaymentRail = RailIdServing<'buy-funding' | 'sell-payout'>;

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

/** The article before the rail's name inside a sentence ('a', 'an'). */
export function railArticle(id: string): 'a' | 'an' {
  return findRail(id)?.article ?? 'a';
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

/** A member every rail of a list must have; a registry without it does not load. */
function required<T>(id: string, value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`The ${id} rail has no ${what}.`);
  return value;
}

/** The ids of the rails with an operator's settings group (its switch, fields and arrival line). */
export type RailIdWithSettings = Extract<(typeof RAILS)[number], { settings: object }>['id'];

/** The rails with an operator's settings group, in the order the settings editor shows them. */
export const RAILS_WITH_SETTINGS = RAIL_LIST.flatMap((rail) =>
  rail.settings ? [{ id: rail.id as RailIdWithSettings, settings: rail.settings }] : [],
);
/** Their ids: the groups of the global settings, and the lines of their "When it arrives" group. */
export const SETTINGS_RAILS: readonly RailIdWithSettings[] = RAILS_WITH_SETTINGS.map(({ id }) => id);

/** Whether the rail has an operator's settings group (else it is always on and charges nothing). */
export function hasSettings(id: string): id is RailIdWithSettings {
  return (SETTINGS_RAILS as readonly string[]).includes(id);
}

/** Each settings group's first "when it arrives" text (the operator edits them). */
export const DEFAULT_RAIL_ARRIVAL = byRail(SETTINGS_RAILS, (id) =>
  required(id, findRail(id)?.defaultArrival, 'arrival text'),
);

/** When the money of each rail dollars move by arrives, as the registry says it. */
const REGISTRY_ARRIVAL = byRail(PAYMENT_RAILS, (id) =>
  required(id, findRail(id)?.defaultArrival, 'arrival text'),
);

/**
 * When the money of a rail arrives: the operator's words (`arrival`, the settings' "When it arrives"
 * group) for a rail with a settings group, the registry's for a rail without one.
 */
export function railArrival(arrival: Record<RailIdWithSettings, string>, id: PaymentRail): string {
  return hasSettings(id) ? arrival[id] : REGISTRY_ARRIVAL[id];
}

/** Whether a rail is on: its settings group's switch, or always for a rail without a group. */
export function railIsOn(
  switches: Record<RailIdWithSettings, { is_active: boolean }>,
  id: PaymentRail,
): boolean {
  return hasSettings(id) ? switches[id].is_active : true;
}

/** What each rail a sell is paid out by needs of the customer's details. */
export const SELL_PAYOUTS = byRail(SELL_PAYOUT_RAILS, (id) =>
  required(id, findRail(id)?.sellPayout, 'sell payout details'),
);
