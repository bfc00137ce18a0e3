import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { createdAtColumn, idColumn, timestampTz } from './columns';

/**
 * The places' rules (docs/design.md, "Places and the scam shield"), versioned: an edit never changes a
 * row, it writes the place's new rules under the next version number. The rules in force at version V
 * are, for each place, its newest row of a version at most V; an order keeps the V it was checked
 * against. Version 1 is the seed written by the migration.
 */
export const jurisdictionRules = pgTable(
  'jurisdiction_rules',
  {
    version: integer('version').notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    buy: boolean('buy').notNull(),
    sell: boolean('sell').notNull(),
    /** A new customer's daily buy cap of this place, when stricter than the global one; null: global. */
    newCustomerDailyCents: bigint('new_customer_daily_cents', { mode: 'bigint' }),
    /** The largest order of a customer of this place; null: the global `max_order_size`. */
    orderMaxCents: bigint('order_max_cents', { mode: 'bigint' }),
    licence: text('licence').notNull().default(''),
    disclosures: text('disclosures').notNull().default(''),
    createdBy: text('created_by').notNull(),
    createdAt: createdAtColumn(),
  },
  (table) => [
    uniqueIndex('jurisdiction_rules_code_version_unique').on(table.code, table.version),
    index('jurisdiction_rules_version_idx').on(table.version),
    check(
      'jurisdiction_rules_amounts',
      sql`coalesce(${table.newCustomerDailyCents}, 1) > 0 and coalesce(${table.orderMaxCents}, 1) > 0`,
    ),
  ],
);

export type JurisdictionRuleRow = typeof jurisdictionRules.$inferSelect;

/**
 * A place's edit waiting for a second admin (four eyes, as for large payouts): at most one open per
 * place; the second admin carries out exactly the rules requested.
 */
export const jurisdictionEditRequests = pgTable(
  'jurisdiction_edit_requests',
  {
    id: idColumn(),
    code: text('code').notNull(),
    rules: jsonb('rules').$type<Record<string, unknown>>().notNull(),
    requestedByUserId: uuid('requested_by_user_id')
      .notNull()
      .references(() => users.id),
    requestedByEmail: text('requested_by_email').notNull(),
    approvedByUserId: uuid('approved_by_user_id').references(() => users.id),
    approvedAt: timestampTz('approved_at'),
    createdAt: createdAtColumn(),
  },
  (table) => [
    uniqueIndex('jurisdiction_edit_requests_open_unique')
      .on(table.code)
      .where(sql`${table.approvedAt} is null`),
  ],
);

export type JurisdictionEditRequestRow = typeof jurisdictionEditRequests.$inferSelect;

export const SHIELD_DECISIONS = [
  'place_refused',
  'scam_question_missing',
  'scam_answer_ok',
  'scam_someone_asked',
  'new_customer_cap',
  'cooling_off',
  'scam_cancel',
] as const;
export type ShieldDecision = (typeof SHIELD_DECISIONS)[number];

/**
 * Every decision the places rules and the scam shield make about a customer (refusals, answers, caps,
 * cooling-off holds, scam cancels): the audit trail of the shield, never deleted, counted by the
 * metrics. Written in its own statement when the decision is a refusal (the refused request's
 * transaction rolls back), in the order's transaction otherwise.
 */
export const shieldDecisions = pgTable(
  'shield_decisions',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    decision: text('decision', { enum: SHIELD_DECISIONS }).notNull(),
    orderId: uuid('order_id'),
    route: text('route'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAtColumn(),
  },
  (table) => [
    index('shield_decisions_user_idx').on(table.userId, table.createdAt),
    index('shield_decisions_decision_idx').on(table.decision),
  ],
);
