import { z } from 'zod';

/**
 * The places a US customer may live in (docs/design.md, "Places and the scam shield"): the 50 states,
 * the District of Columbia and the inhabited territories, by their USPS codes. Declared once: the KYC
 * form's select, the rules table's seed and every check of a code read this list.
 */
export const PLACES = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
  ['AS', 'American Samoa'],
  ['GU', 'Guam'],
  ['MP', 'Northern Mariana Islands'],
  ['PR', 'Puerto Rico'],
  ['VI', 'U.S. Virgin Islands'],
] as const;

export type PlaceCode = (typeof PLACES)[number][0];
export const PLACE_CODES = PLACES.map(([code]) => code) as unknown as readonly [PlaceCode, ...PlaceCode[]];
const NAMES = new Map<string, string>(PLACES);

export function isPlaceCode(code: string): code is PlaceCode {
  return NAMES.has(code);
}

export function placeName(code: PlaceCode): string {
  return NAMES.get(code)!;
}

/** A place's code from what an identity provider wrote: a USPS code or the place's name, any case. */
export function placeCodeFrom(text: string | null | undefined): PlaceCode | null {
  const value = text?.trim();
  if (!value) return null;
  const upper = value.toUpperCase().replace(/^US-/, '');
  if (isPlaceCode(upper)) return upper;
  const byName = PLACES.find(([, name]) => name.toLowerCase() === value.toLowerCase());
  return byName ? byName[0] : null;
}

export const PLACE_MESSAGES = {
  unknown: (code: string) =>
    `"${code}" is not a US state, DC or territory code. Use a two-letter code such as CA or NY.`,
  /** A customer of a place where OffZero may not trade (the exact words for New York are the contract's). */
  closed: (name: string) => `OffZero is not available in ${name} yet.`,
  orderMax: (name: string, max: string) => `Orders from ${name} are limited to ${max}.`,
  chooseState: 'Choose the state or territory you live in.',
} as const;

/** One place's rules, as `GET /api/jurisdictions` lists them (USD at this edge). */
export const jurisdictionSchema = z.object({
  code: z.string(),
  name: z.string(),
  buy: z.boolean(),
  sell: z.boolean(),
  /** A stricter daily buy cap for new customers of this place; null: the global one. */
  newCustomerDailyUsd: z.number().nullable(),
  /** The largest order a customer of this place may place; null: the global `max_order_size`. */
  orderMaxUsd: z.number().nullable(),
  /** The licence line shown on quotes and receipts. */
  licence: z.string(),
  disclosures: z.string(),
  /** The rules version this place's current rules were written in. */
  version: z.number().int(),
});
export type Jurisdiction = z.infer<typeof jurisdictionSchema>;

export const jurisdictionsResponseSchema = z.object({
  version: z.number().int(),
  jurisdictions: z.array(jurisdictionSchema),
});
export type JurisdictionsResponse = z.infer<typeof jurisdictionsResponseSchema>;

const usd = z
  .number({ error: 'Enter an amount in USD as a number.' })
  .finite()
  .positive({ error: 'Enter an amount above zero, or null for the global limit.' });

/** `PUT /api/admin/jurisdictions/:code`: the place's new rules, every field given. */
export const jurisdictionUpdateSchema = z.strictObject({
  buy: z.boolean(),
  sell: z.boolean(),
  newCustomerDailyUsd: usd.nullable(),
  orderMaxUsd: usd.nullable(),
  licence: z.string().trim().max(500, { error: 'The licence line can be at most 500 characters.' }),
  disclosures: z.string().trim().max(4000, { error: 'The disclosures can be at most 4,000 characters.' }),
});
export type JurisdictionUpdate = z.infer<typeof jurisdictionUpdateSchema>;

/** What quotes and receipts carry from the customer's place. */
export const placeTermsSchema = z.object({
  code: z.string(),
  licence: z.string(),
  disclosures: z.string(),
  version: z.number().int(),
});
export type PlaceTerms = z.infer<typeof placeTermsSchema>;
