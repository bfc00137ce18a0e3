import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orders } from './orders';
import { payouts } from './payouts';

/**
 * The invoice a sell paid by Lightning carries (docs/design.md, "Lightning"): one per order, for exactly
 * the quoted satoshis, expiring with the quote. `paidAt` is set once, by whichever of the node's
 * webhook, the reconcile job or the demo payment sees it first; the deposit is credited in that
 * same transaction.
 */
export const lightningInvoices = pgTable(
  'lightning_invoices',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id),
    paymentHash: text('payment_hash').notNull(),
    invoice: text('invoice').notNull(),
    amountSats: bigint('amount_sats', { mode: 'bigint' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    receivedSats: bigint('received_sats', { mode: 'bigint' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('lightning_invoices_hash_unique').on(table.paymentHash),
    index('lightning_invoices_open_idx').on(table.expiresAt).where(sql`${table.paidAt} is null`),
  ],
);

export type LightningInvoiceRow = typeof lightningInvoices.$inferSelect;

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
