import { sql } from 'drizzle-orm';
import { PLAN_FREQUENCIES, PLAN_RUN_STATUSES, PLAN_STATUSES } from '@offzero/shared/api/plans';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import type { ScamCheck } from '@offzero/shared/places/scam-shield';
import { DEPOSIT_BUY_STATUSES } from '@offzero/shared/api/deposit-buys';
import { users } from './accounts';
import { bankInboundCredits } from './bank';
import { orders, payoutAddresses, quotes } from './orders';

/**
 * Recurring buys (docs/design.md, "Recurring buys"): a plan debits the customer's bank account on a
 * schedule and buys bitcoin paid out to one of their address-book entries. The ACH debit authorization
 * the customer accepted (its text, time, IP and the bank account it names) is kept with the plan.
 */
export const plans = pgTable(
  'plans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    frequency: text('frequency', { enum: PLAN_FREQUENCIES }).notNull(),
    /** The bank's business day of the next run (America/New_York), as YYYY-MM-DD. */
    nextRunOn: date('next_run_on', { mode: 'string' }).notNull(),
    /** The day the schedule counts from (a monthly plan keeps its day of the month). */
    anchorOn: date('anchor_on', { mode: 'string' }).notNull(),
    status: text('status', { enum: PLAN_STATUSES }).notNull().default('active'),
    /** Set when the plan was paused because the bank returned a debit (not by the customer). */
    pausedByReturn: boolean('paused_by_return').notNull().default(false),
    payoutAddressId: uuid('payout_address_id')
      .notNull()
      .references(() => payoutAddresses.id),
    authorizationText: text('authorization_text').notNull(),
    authorizedAt: timestamp('authorized_at', { withTimezone: true }).notNull(),
    authorizedIp: text('authorized_ip').notNull(),
    bankAccountName: text('bank_account_name').notNull(),
    bankAccountNumber: text('bank_account_number').notNull(),
    bankRoutingNumber: text('bank_routing_number').notNull(),
    /** A new customer's answer to the first-buy scam question, passed by each run's buy. */
    scamCheck: jsonb('scam_check').$type<ScamCheck>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('plans_amount', sql`${table.amountCents} > 0`),
    check('plans_frequency', sql`${table.frequency} in ('weekly', 'biweekly', 'monthly')`),
    check('plans_status', sql`${table.status} in ('active', 'paused', 'cancelled')`),
    index('plans_user').on(table.userId),
    index('plans_due')
      .on(table.nextRunOn)
      .where(sql`${table.status} = 'active'`),
  ],
);

/**
 * One row per scheduled day of a plan: unique per plan and day, so a run is never made twice (two
 * workers at once, a clock that jumps). The debit's bank transfer id is unique too: a bank event
 * about it finds exactly one run.
 */
export const planRuns = pgTable(
  'plan_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => plans.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    runOn: date('run_on', { mode: 'string' }).notNull(),
    status: text('status', { enum: PLAN_RUN_STATUSES }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    /** The quote the run's buy is saved against: recorded first, so a retried run finds its order. */
    quoteId: uuid('quote_id').references(() => quotes.id),
    orderId: uuid('order_id').references(() => orders.id),
    transferId: text('transfer_id').unique(),
    returnCode: text('return_code'),
    /** Why the run failed or was skipped, in the customer's words. */
    note: text('note'),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** When the hold ends: the bitcoin is released to the payout batch from then on. */
    releaseAt: timestamp('release_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    returnedAt: timestamp('returned_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('plan_runs_plan_day').on(table.planId, table.runOn),
    check(
      'plan_runs_status',
      sql`${table.status} in ('claimed', 'debiting', 'holding', 'paid', 'returned', 'reversed', 'skipped', 'failed')`,
    ),
    index('plan_runs_open')
      .on(table.status)
      .where(sql`${table.status} in ('claimed', 'debiting', 'holding', 'paid')`),
  ],
);

/**
 * "Buy bitcoin with every deposit" (docs/design.md, "Recurring buys"): one row per customer who set it,
 * with the address-book entry the buys pay and, for a new customer, their answer to the scam question.
 */
export const depositBuySettings = pgTable('deposit_buy_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  enabled: boolean('enabled').notNull(),
  payoutAddressId: uuid('payout_address_id').references(() => payoutAddresses.id),
  scamCheck: jsonb('scam_check').$type<ScamCheck>(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A bank credit turned into a buy: one per credit (unique), so a credit reported twice buys once. Its
 * quote is recorded before the order is saved, so a retried buy finds its order.
 */
export const depositBuys = pgTable(
  'deposit_buys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    creditId: uuid('credit_id')
      .notNull()
      .unique()
      .references(() => bankInboundCredits.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    status: text('status', { enum: DEPOSIT_BUY_STATUSES }).notNull(),
    quoteId: uuid('quote_id').references(() => quotes.id),
    orderId: uuid('order_id').references(() => orders.id),
    /** Why no buy was made, in an operator's words (the credit keeps it as its reason too). */
    note: text('note'),
    /** When the hold ends: the buy's payment is confirmed and it joins the payout batch. */
    releaseAt: timestamp('release_at', { withTimezone: true }),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('deposit_buys_status', sql`${table.status} in ('claimed', 'holding', 'paid', 'refused')`),
    index('deposit_buys_open')
      .on(table.status)
      .where(sql`${table.status} in ('claimed', 'holding')`),
  ],
);

export type PlanRow = typeof plans.$inferSelect;
export type DepositBuyRow = typeof depositBuys.$inferSelect;
export type DepositBuySettingRow = typeof depositBuySettings.$inferSelect;
export type PlanRunRow = typeof planRuns.$inferSelect;
