import { bigint, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orders } from './orders';
import { payouts } from './payouts';

/**
 * The day's NACHA file of ACH sell payouts (docs/design.md, "ACH file"), kept as it was first
 * downloaded: the same day's file downloaded again is these bytes. One row per New York day that had
 * payouts due; a day with none stores nothing.
 */
export const achFiles = pgTable('ach_files', {
  businessDay: date('business_day', { mode: 'string' }).primaryKey(),
  contents: text('contents').notNull(),
  entryCount: integer('entry_count').notNull(),
  totalCents: bigint('total_cents', { mode: 'bigint' }).notNull(),
  /** The banking day the entries settle on (the day itself, or the next banking day). */
  effectiveEntryDate: date('effective_entry_date', { mode: 'string' }).notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type AchFileRow = typeof achFiles.$inferSelect;

/** Which payout each entry of a day's file is, by its trace number (what a bank return quotes). */
export const achFileEntries = pgTable(
  'ach_file_entries',
  {
    payoutId: uuid('payout_id')
      .primaryKey()
      .references(() => payouts.id),
    businessDay: date('business_day', { mode: 'string' })
      .notNull()
      .references(() => achFiles.businessDay),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    traceNumber: text('trace_number').notNull(),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
  },
  (table) => [
    uniqueIndex('ach_file_entries_day_trace_unique').on(table.businessDay, table.traceNumber),
    index('ach_file_entries_order_idx').on(table.orderId),
  ],
);

export type AchFileEntryRow = typeof achFileEntries.$inferSelect;
