import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { payouts } from './payouts';

/**
 * What a Lightning payout pays (docs/design.md, "Lightning"): the invoice, known before the payout is
 * claimed (a Lightning address is resolved to one first), so a payout whose outcome a crash lost is
 * looked up by its payment hash, never sent again. The preimage is the proof it was paid.
 */
export const lightningPayouts = pgTable(
  'lightning_payouts',
  {
    payoutId: uuid('payout_id')
      .primaryKey()
      .references(() => payouts.id),
    paymentHash: text('payment_hash').notNull(),
    invoice: text('invoice').notNull(),
    /** The most the node may spend on routing fees for it. */
    feeBudgetSats: bigint('fee_budget_sats', { mode: 'bigint' }).notNull(),
    feeSats: bigint('fee_sats', { mode: 'bigint' }),
    preimage: text('preimage'),
    failureReason: text('failure_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('lightning_payouts_hash_idx').on(table.paymentHash)],
);

export type LightningPayoutRow = typeof lightningPayouts.$inferSelect;

/**
 * The demo's stand-in Lightning nodes (the operator's, and the customer's wallet): the invoices each
 * issued. Kept in the database so every process sees one network. Paying one is a conditional update
 * of `paidAt`, so it is paid once however many processes try.
 */
export const demoLightningInvoices = pgTable(
  'demo_lightning_invoices',
  {
    paymentHash: text('payment_hash').primaryKey(),
    node: text('node', { enum: ['operator', 'wallet'] }).notNull(),
    invoice: text('invoice').notNull(),
    preimage: text('preimage').notNull(),
    amountSats: bigint('amount_sats', { mode: 'bigint' }),
    externalId: text('external_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    receivedSats: bigint('received_sats', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
);

/** The payments the demo nodes sent, one per invoice paid. */
export const demoLightningPayments = pgTable(
  'demo_lightning_payments',
  {
    paymentId: uuid('payment_id').primaryKey().defaultRandom(),
    node: text('node', { enum: ['operator', 'wallet'] }).notNull(),
    paymentHash: text('payment_hash').notNull(),
    status: text('status', { enum: ['settled', 'failed'] }).notNull(),
    amountSats: bigint('amount_sats', { mode: 'bigint' }).notNull(),
    feeSats: bigint('fee_sats', { mode: 'bigint' }).notNull(),
    preimage: text('preimage'),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('demo_lightning_payments_hash_idx').on(table.paymentHash),
    check('demo_lightning_payments_settled', sql`${table.status} <> 'settled' or ${table.preimage} is not null`),
  ],
);
