import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { orders } from './orders';

/**
 * The demo stand-in bank (bank/demo-bank.ts): the account numbers it issued, the transfers it holds
 * (outbound and inbound) and its webhook secret, kept in the database so every server process sees the
 * same bank, as every caller of a real bank sees the same bank.
 */
export const demoBankAccountNumbers = pgTable(
  'demo_bank_account_numbers',
  {
    id: text('id').primaryKey(),
    accountNumber: text('account_number').notNull().unique(),
    routingNumber: text('routing_number').notNull(),
    name: text('name').notNull(),
    /** The key the account number was created with: the same key again answers this row. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    status: text('status', { enum: ['active', 'disabled', 'canceled'] })
      .notNull()
      .default('active'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('demo_bank_account_numbers_status', sql`${table.status} in ('active', 'disabled', 'canceled')`),
  ],
);

export const DEMO_BANK_TRANSFER_KINDS = ['ach_credit', 'ach_debit', 'wire', 'rtp', 'fednow'] as const;
export const DEMO_BANK_TRANSFER_STATUSES = [
  'pending',
  'submitted',
  'settled',
  'rejected',
  'returned',
] as const;

export const demoBankTransfers = pgTable(
  'demo_bank_transfers',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: DEMO_BANK_TRANSFER_KINDS }).notNull(),
    direction: text('direction', { enum: ['outbound', 'inbound'] }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    status: text('status', { enum: DEMO_BANK_TRANSFER_STATUSES }).notNull(),
    /** The network's reference; a sender may reuse one, so it is not unique here (OffZero credits once). */
    traceNumber: text('trace_number').notNull(),
    /** Outbound: the key it was created with (the same key answers this row). Inbound: null. */
    idempotencyKey: text('idempotency_key').unique(),
    /** Inbound: the demo account number it was sent to. */
    accountNumberId: text('account_number_id'),
    counterpartyAccountNumber: text('counterparty_account_number'),
    counterpartyRoutingNumber: text('counterparty_routing_number'),
    counterpartyName: text('counterparty_name').notNull(),
    secCode: text('sec_code'),
    description: text('description').notNull().default(''),
    returnCode: text('return_code'),
    /** An instant transfer the bank settles by itself once this time has passed. */
    settleAt: timestamp('settle_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('demo_bank_transfers_amount', sql`${table.amountCents} > 0`),
    check(
      'demo_bank_transfers_kind',
      sql`${table.kind} in ('ach_credit', 'ach_debit', 'wire', 'rtp', 'fednow')`,
    ),
    check(
      'demo_bank_transfers_status',
      sql`${table.status} in ('pending', 'submitted', 'settled', 'rejected', 'returned')`,
    ),
    check(
      'demo_bank_transfers_inbound_account',
      sql`(${table.direction} = 'inbound') = (${table.accountNumberId} is not null)`,
    ),
    index('demo_bank_transfers_account_number').on(table.accountNumberId),
    index('demo_bank_transfers_trace').on(table.traceNumber),
    index('demo_bank_transfers_counterparty').on(table.counterpartyAccountNumber),
    index('demo_bank_transfers_due')
      .on(table.settleAt)
      .where(sql`${table.status} = 'submitted' and ${table.settleAt} is not null`),
  ],
);

/**
 * The demo bank's webhook signing secret: one row, id 1, made by the first process to need it, so a
 * delivery signed by one process verifies in every other.
 */
export const demoBankState = pgTable(
  'demo_bank_state',
  {
    id: integer('id').primaryKey().default(1),
    webhookSecret: text('webhook_secret').notNull(),
  },
  (table) => [check('demo_bank_state_single_row', sql`${table.id} = 1`)],
);

/**
 * Each verified customer's own account number at our bank (docs/design.md, "Bank provider"): their ACH
 * and wire buys are paid into it, so a deposit names its customer. Created once through the bank with
 * the idempotency key `funding-<userId>`; one row per customer.
 */
export const bankAccountNumbers = pgTable('bank_account_numbers', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  /** The bank's id of the account number (Increase: `account_number_…`). */
  bankAccountNumberId: text('bank_account_number_id').notNull().unique(),
  accountNumber: text('account_number').notNull().unique(),
  routingNumber: text('routing_number').notNull(),
  bankName: text('bank_name').notNull(),
  accountHolder: text('account_holder').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const BANK_CREDIT_STATUSES = ['matched', 'unmatched', 'returned'] as const;
export type BankCreditStatus = (typeof BANK_CREDIT_STATUSES)[number];

/**
 * Money that arrived at our bank (inbound ACH, wire or instant credits), one row per trace number:
 * the unique trace makes the same payment reported twice credit once. `matched` paid `orderId`
 * (automatically, or by an operator: `resolvedBy`); `unmatched` waits in the back office's work queue
 * ("Unmatched bank credits") with the reason; `returned` went back to its sender.
 */
export const bankInboundCredits = pgTable(
  'bank_inbound_credits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    traceNumber: text('trace_number').notNull().unique(),
    /** The bank's id of the inbound transfer. */
    bankTransferId: text('bank_transfer_id').notNull().unique(),
    rail: text('rail', { enum: ['ach', 'wire', 'instant'] }).notNull(),
    bankAccountNumberId: text('bank_account_number_id').notNull(),
    /** The customer whose account number received it; null when no customer has that number. */
    userId: uuid('user_id').references(() => users.id),
    amountCents: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    originatorName: text('originator_name').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    status: text('status', { enum: BANK_CREDIT_STATUSES }).notNull(),
    /** Why it was not matched, in an operator's words. */
    reason: text('reason'),
    orderId: uuid('order_id').references(() => orders.id),
    /** `bank` when matched automatically, else the operator's e-mail. */
    resolvedBy: text('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('bank_inbound_credits_amount', sql`${table.amountCents} > 0`),
    check('bank_inbound_credits_status', sql`${table.status} in ('matched', 'unmatched', 'returned')`),
    check('bank_inbound_credits_matched_order', sql`(${table.status} = 'matched') = (${table.orderId} is not null)`),
    uniqueIndex('bank_inbound_credits_order').on(table.orderId),
    index('bank_inbound_credits_unmatched')
      .on(table.receivedAt)
      .where(sql`${table.status} = 'unmatched'`),
    index('bank_inbound_credits_user').on(table.userId),
  ],
);
