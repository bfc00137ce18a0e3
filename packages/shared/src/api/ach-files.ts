import { z } from 'zod';

/**
 * The day's ACH payout file (docs/design.md, "ACH file"): what the back office's Payouts page shows
 * before and after the download. `GET /api/admin/payouts/ach-file?date=` is the file itself.
 */

/** The question both routes ask: the New York day, YYYY-MM-DD. */
export const achFileQuerySchema = z.strictObject({
  date: z.string().max(40).describe('The New York day of the file, YYYY-MM-DD (today or earlier).'),
});

export const achFileSummarySchema = z.object({
  date: z.string(),
  /** The banking day the entries settle on: the day itself, or the next banking day. */
  effectiveEntryDate: z.string(),
  /** The file was downloaded already: downloading it again gives the same bytes. */
  downloaded: z.boolean(),
  downloadedAt: z.string().nullable(),
  entryCount: z.number().int().nonnegative(),
  /** Dollars, two decimals ("1234.50"). */
  total: z.string(),
  /** Due ACH sells that cannot go in a file (bad bank details): staff pay them by hand. */
  skipped: z.array(z.object({ orderId: z.string(), reason: z.string() })),
});
export type AchFileSummary = z.infer<typeof achFileSummarySchema>;

/** The words the routes answer a day they cannot make a file of. */
export const ACH_FILE_MESSAGES = {
  badDate: 'The date must be a day written YYYY-MM-DD, for example 2026-11-30.',
  futureDate: 'Choose today or an earlier day: a later day’s file cannot be made yet.',
  notConfigured:
    'The ACH file is not set up: set ACH_ODFI_ROUTING_NUMBER, ACH_ODFI_NAME, ACH_COMPANY_ID and ACH_COMPANY_NAME.',
} as const;
