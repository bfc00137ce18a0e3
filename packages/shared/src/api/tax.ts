import { z } from 'zod';

/**
 * Tax identity (Form W-9) and tax documents (docs/design.md): the request and answer shapes and
 * the taxpayer identification number rules, checked identically by the form and the server.
 */

export const TIN_TYPES = ['SSN', 'EIN', 'ITIN'] as const;
export type TinType = (typeof TIN_TYPES)[number];

export const W9_REQUIRED_MESSAGE = 'Add your tax details (Form W-9) before selling.';

/**
 * Valid EIN prefixes: the union of every campus's list in the IRS page "How EINs are assigned and valid
 * EIN prefixes" (Andover 10, 12; Atlanta 60, 67; Austin 50, 53; Brookhaven 01–06, 11, 13, 14, 16, 21–23,
 * 25, 34, 51, 52, 54–59, 65; Cincinnati 30, 32, 35–38, 61; Fresno 15, 24; Kansas City 40, 44; Memphis 94,
 * 95; Ogden 80, 90; Philadelphia 33, 39, 41–43, 45–48, 62–64, 66, 68, 71–77, 81–88, 91–93, 98, 99;
 * Internet 20, 26, 27, 45–47, 81–88; SBA 31). Never assigned: 00, 07–09, 17–19, 28, 29, 49, 69, 70, 78,
 * 79, 89, 96, 97.
 */
const VALID_EIN_PREFIXES = new Set(
  [
    [1, 6],
    [10, 16],
    [20, 27],
    [30, 48],
    [50, 68],
    [71, 77],
    [80, 88],
    [90, 95],
    [98, 99],
  ].flatMap(([from = 0, to = 0]) =>
    Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(2, '0')),
  ),
);

/** ITIN middle digits (the "group"): 50–65, 70–88, 90–92 and 94–99 (IRS ITIN format). */
function isItinGroup(group: number): boolean {
  return (
    (group >= 50 && group <= 65) ||
    (group >= 70 && group <= 88) ||
    (group >= 90 && group <= 92) ||
    (group >= 94 && group <= 99)
  );
}

/** The nine digits of a TIN typed with or without its dashes or spaces; null when it is not that. */
export function tinDigits(raw: string): string | null {
  const compact = raw.replace(/[\s-]/g, '');
  return /^\d{9}$/.test(compact) ? compact : null;
}

/** Why this TIN cannot be right, or null when it follows the rules of its type. */
export function tinProblem(tinType: TinType, raw: string): string | null {
  const digits = tinDigits(raw);
  if (!digits) {
    return tinType === 'EIN'
      ? 'Enter the EIN as 9 digits, like 12-3456789.'
      : `Enter the ${tinType} as 9 digits, like 123-45-6789.`;
  }
  const area = digits.slice(0, 3);
  const group = digits.slice(3, 5);
  const serial = digits.slice(5);
  switch (tinType) {
    case 'SSN':
      if (area === '000' || area === '666' || area.startsWith('9')) {
        return 'This is not a valid SSN: it cannot start with 000, 666 or 9.';
      }
      if (group === '00') return 'This is not a valid SSN: its middle two digits cannot be 00.';
      if (serial === '0000') return 'This is not a valid SSN: its last four digits cannot be 0000.';
      return null;
    case 'ITIN':
      if (!area.startsWith('9')) return 'This is not a valid ITIN: an ITIN starts with 9.';
      if (!isItinGroup(Number(group))) {
        return 'This is not a valid ITIN: its middle two digits must be 50–65, 70–88, 90–92 or 94–99.';
      }
      return null;
    case 'EIN':
      if (!VALID_EIN_PREFIXES.has(digits.slice(0, 2))) {
        return `This is not a valid EIN: no EIN starts with ${digits.slice(0, 2)}.`;
      }
      return null;
  }
}

/** What any screen may show of a TIN: its last four digits (`***-**-1234`, an EIN `**-***1234`). */
export function maskTin(tinType: TinType, digits: string): string {
  const last4 = digits.slice(-4);
  return tinType === 'EIN' ? `**-***${last4}` : `***-**-${last4}`;
}

// Stored as given and shown as text; control and bidi-override characters are refused.
const PLAIN_TEXT = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]*$/u;
const plainText = (label: string, max: number) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, { error: `Enter the ${label}.` })
    .max(max, { error: `The ${label} can be at most ${max} characters.` })
    .regex(PLAIN_TEXT, { error: `The ${label} contains characters we cannot accept.` });

/** US states, the District of Columbia and the territories the IRS accepts on a W-9 address. */
export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
  'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
  'AS', 'GU', 'MP', 'PR', 'VI',
] as const; // prettier-ignore

export const w9AddressSchema = z.strictObject({
  line1: plainText('street address', 120),
  city: plainText('city', 60),
  state: z
    .string({ error: 'Choose the state.' })
    .trim()
    .toUpperCase()
    .refine((value) => (US_STATES as readonly string[]).includes(value), {
      error: 'Choose the state (two letters, like NY).',
    }),
  postalCode: z
    .string({ error: 'Enter the ZIP code.' })
    .trim()
    .regex(/^\d{5}(-\d{4})?$/, { error: 'Enter the ZIP code as 5 digits (or ZIP+4, like 82001-1234).' }),
});
export type W9Address = z.infer<typeof w9AddressSchema>;

export const saveW9Schema = z
  .strictObject({
    legalName: plainText('legal name', 100),
    tinType: z.enum(TIN_TYPES, { error: 'Choose SSN, EIN or ITIN.' }),
    tin: z.string({ error: 'Enter your taxpayer identification number.' }).trim().max(20, {
      error: 'Enter the number as 9 digits.',
    }),
    address: w9AddressSchema,
    certify: z.literal(true, { error: 'Certify that the information is correct to continue.' }),
  })
  .superRefine((w9, ctx) => {
    const problem = tinProblem(w9.tinType, w9.tin);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['tin'] });
  });
export type SaveW9Request = z.input<typeof saveW9Schema>;

export const w9Schema = z.object({
  legalName: z.string(),
  tinType: z.enum(TIN_TYPES),
  /** Masked: the full number is in no answer. */
  tin: z.string(),
  address: z.object({ line1: z.string(), city: z.string(), state: z.string(), postalCode: z.string() }),
  certifiedAt: z.string(),
});
export type W9 = z.infer<typeof w9Schema>;

export const w9ResponseSchema = z.object({ w9: w9Schema.nullable() });
export const saveW9ResponseSchema = z.object({ message: z.string(), w9: w9Schema });

export const TAX_EXPORT_FORMATS = ['offzero', 'koinly', 'cointracker'] as const;
export type TaxExportFormat = (typeof TAX_EXPORT_FORMATS)[number];

/** A calendar year, 2009 (bitcoin's first) up to the current one. */
export const taxYearSchema = z
  .string({ error: 'Give the year, like ?year=2025.' })
  .regex(/^\d{4}$/, { error: 'Give the year as four digits, like ?year=2025.' })
  .transform(Number)
  .refine((year) => year >= 2009, { error: 'There are no bitcoin trades before 2009.' })
  .refine((year) => year <= new Date().getUTCFullYear(), { error: 'That year has not happened yet.' });

export const taxExportQuerySchema = z.strictObject({
  year: taxYearSchema,
  format: z.enum(TAX_EXPORT_FORMATS, { error: 'Choose the format: offzero, koinly or cointracker.' }),
});
export const taxYearQuerySchema = z.strictObject({ year: taxYearSchema });
