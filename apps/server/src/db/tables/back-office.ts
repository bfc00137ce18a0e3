import { sql } from 'drizzle-orm';
import { auditTargetTypes, FOUR_EYES_ACTIONS } from '@offzero/shared/api/admin';
import { CASE_OUTCOMES, CASE_RULES, CASE_STATUSES } from '@offzero/shared/api/cases';
import {
  bigint,
  boolean,
  check,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { orders } from './orders';

/** The back office's audit trail: every admin action with who, when, what, before and after. */
export const adminActions = pgTable(
  'admin_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminUserId: uuid('admin_user_id')
      .notNull()
      .references(() => users.id),
    adminEmail: text('admin_email').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type', {
      enum: auditTargetTypes,
    }).notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
    note: text('note'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('admin_actions_created_idx').on(table.createdAt),
    index('admin_actions_target_idx').on(table.targetType, table.targetId),
  ],
);

export type AdminActionRow = typeof adminActions.$inferSelect;

/**
 * Four eyes: the first admin's request to mark a large buy paid or pay a large sell out. A second,
 * different admin carries it out with the details requested; at most one open request per order and
 * action.
 */
export const fourEyesApprovals = pgTable(
  'four_eyes_approvals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    action: text('action', { enum: FOUR_EYES_ACTIONS }).notNull(),
    requestedByUserId: uuid('requested_by_user_id')
      .notNull()
      .references(() => users.id),
    requestedByEmail: text('requested_by_email').notNull(),
    /** What was asked, which the second admin carries out exactly: the action's own details (a payout's
     * reference) and the order's value and amount at the time (`valueCents`, `amountSats`). */
    details: jsonb('details').$type<Record<string, string>>().notNull().default({}),
    approvedByUserId: uuid('approved_by_user_id').references(() => users.id),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('four_eyes_open_unique')
      .on(table.orderId, table.action)
      .where(sql`${table.approvedAt} is null`),
  ],
);

export type FourEyesApprovalRow = typeof fourEyesApprovals.$inferSelect;

/**
 * Monitoring cases (docs/design.md): a rule matched a customer's orders or deposits. Never shown to the
 * customer and never deleted (kept at least 5 years; the retention job does not touch them).
 * At most one case per customer and rule is not closed (`monitoring_cases_one_open`), and one matching
 * event (`trigger_key`: the order that completed the pattern) opens at most one case ever, so jobs run
 * twice or in several processes open it once.
 */
export const monitoringCases = pgTable(
  'monitoring_cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    rule: text('rule', { enum: CASE_RULES }).notNull(),
    status: text('status', { enum: CASE_STATUSES }).notNull().default('open'),
    triggerKey: text('trigger_key').notNull(),
    /** What matched: order ids, amounts, times and the matched values (bank account numbers masked). */
    evidence: jsonb('evidence').$type<Record<string, unknown>>().notNull(),
    outcome: text('outcome', { enum: CASE_OUTCOMES }),
    /** The day a Suspicious Activity Report was filed (YYYY-MM-DD) and FinCEN's reference for it. */
    sarFiledAt: text('sar_filed_at'),
    sarReference: text('sar_reference'),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('monitoring_cases_one_open')
      .on(table.userId, table.rule)
      .where(sql`${table.status} <> 'closed'`),
    uniqueIndex('monitoring_cases_trigger_unique').on(table.userId, table.rule, table.triggerKey),
    index('monitoring_cases_status_idx').on(table.status, table.openedAt),
    // The case list, newest first, read from an index (docs/performance.md, "At scale").
    index('monitoring_cases_opened_idx').on(table.openedAt, table.id),
    check(
      'monitoring_cases_closed_outcome',
      sql`(${table.status} = 'closed') = (${table.outcome} is not null and ${table.closedAt} is not null)`,
    ),
    check(
      'monitoring_cases_sar_details',
      sql`(${table.outcome} = 'sar_filed') = (${table.sarFiledAt} is not null and ${table.sarReference} is not null)`,
    ),
  ],
);

/**
 * The Travel Rule record of an order of $3,000 or more (docs/design.md), written with the order and
 * never deleted: who the customer is, the order's amount, date and address, and the customer's answer
 * to whose wallet that is. For a buy the address is the customer's payout address; for a sell, the
 * deposit address their coins are sent to.
 */
export const travelRuleRecords = pgTable(
  'travel_rule_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** The verified legal name when KYC has one, else the profile name. */
    customerName: text('customer_name').notNull(),
    /** The customer's address as the product knows it (the country of their verified identity). */
    customerAddress: text('customer_address'),
    /** How the money moves: the sell's payout account, or the buy's payment method once chosen. */
    paymentIdentifier: text('payment_identifier'),
    amountSats: bigint('amount_sats', { mode: 'bigint' }).notNull(),
    valueCents: bigint('value_cents', { mode: 'bigint' }).notNull(),
    walletAddress: text('wallet_address').notNull(),
    ownWallet: boolean('own_wallet').notNull(),
    /** The exchange or institution holding the wallet, when it is not the customer's own. */
    institution: text('institution'),
    orderCreatedAt: timestamp('order_created_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('travel_rule_records_order_unique').on(table.orderId),
    index('travel_rule_records_user_idx').on(table.userId),
    check(
      'travel_rule_records_institution',
      sql`(${table.ownWallet} and ${table.institution} is null) or (not ${table.ownWallet} and ${table.institution} is not null)`,
    ),
  ],
);

export type MonitoringCaseRow = typeof monitoringCases.$inferSelect;

/** A back-office note on a monitoring case. */
export const monitoringCaseNotes = pgTable(
  'monitoring_case_notes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    caseId: uuid('case_id')
      .notNull()
      .references(() => monitoringCases.id),
    adminUserId: uuid('admin_user_id')
      .notNull()
      .references(() => users.id),
    adminEmail: text('admin_email').notNull(),
    note: text('note').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('monitoring_case_notes_case_idx').on(table.caseId, table.createdAt)],
);

export type MonitoringCaseNoteRow = typeof monitoringCaseNotes.$inferSelect;

/**
 * Which version of each order the monitoring rules last ran on (its `updated_at`): the sweep job runs
 * them on every order changed since, so a change whose own job was lost is still checked.
 */
export const orderMonitoringMarks = pgTable('order_monitoring_marks', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id),
  orderUpdatedAt: timestamp('order_updated_at', { withTimezone: true }).notNull(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
});
export type TravelRuleRecordRow = typeof travelRuleRecords.$inferSelect;
