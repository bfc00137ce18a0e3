import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea } from './columns';
import { orders } from './orders';

/** Deposit addresses are derived at ever-increasing indexes; a sequence never hands one out twice. */
export const depositIndexSequence = pgSequence('deposit_index_seq', { startWith: 0, minValue: 0 });

/**
 * Every transaction output seen paying one of our deposit addresses, credited at most once
 * (`txid:vout` is unique however many watchers see it).
 */
export const deposits = pgTable(
  'deposits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id').references(() => orders.id),
    address: text('address').notNull(),
    txid: text('txid').notNull(),
    vout: integer('vout').notNull(),
    valueSats: bigint('value_sats', { mode: 'bigint' }).notNull(),
    blockHeight: integer('block_height'),
    confirmations: integer('confirmations').notNull().default(0),
    status: text('status', { enum: ['seen', 'vanished'] })
      .notNull()
      .default('seen'),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('deposits_output_unique').on(table.txid, table.vout),
    index('deposits_order_idx').on(table.orderId),
  ],
);

export type DepositRow = typeof deposits.$inferSelect;

/**
 * The blocks the deposit watcher has matched against its open deposit addresses, newest last: where
 * the next pass resumes (after the highest), how a reorganisation is found (a stored hash the chain no
 * longer has at that height), and when each block was read, so that an address's history from before
 * its order existed is never credited to the order.
 */
export const depositScanBlocks = pgTable('deposit_scan_blocks', {
  height: integer('height').primaryKey(),
  hash: text('hash').notNull(),
  scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull().defaultNow(),
});

export type DepositScanBlockRow = typeof depositScanBlocks.$inferSelect;

/**
 * The demo chain (chain/simulated-chain.ts): outputs "sent" with /api/dev/chain/send, kept in the
 * database so every server process sees the same chain. `blockHeight` is null while in the mempool;
 * a dropped transaction (replaced or reorganised away) stays recorded but is no longer on the chain.
 */
export const simChainTransactions = pgTable(
  'sim_chain_transactions',
  {
    txid: text('txid').notNull(),
    vout: integer('vout').notNull(),
    address: text('address').notNull(),
    valueSats: bigint('value_sats', { mode: 'bigint' }).notNull(),
    /** The address the simulated transaction spends from (its one input); null when not given. */
    fromAddress: text('from_address'),
    blockHeight: integer('block_height'),
    dropped: boolean('dropped').notNull().default(false),
    /** The simulated transaction that spends this output (a broadcast payout batch); null while unspent. */
    spentByTxid: text('spent_by_txid'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.txid, table.vout] }),
    index('sim_chain_transactions_spent_by_idx').on(table.spentByTxid),
    index('sim_chain_transactions_address_idx').on(table.address),
    check('sim_chain_transactions_vout', sql`${table.vout} >= 0`),
    check('sim_chain_transactions_value', sql`${table.valueSats} > 0`),
  ],
);

/** The demo chain's tip: exactly one row, id 1. */
export const simChainState = pgTable(
  'sim_chain_state',
  {
    id: integer('id').primaryKey().default(1),
    tipHeight: integer('tip_height').notNull(),
  },
  (table) => [
    check('sim_chain_state_single_row', sql`${table.id} = 1`),
    check('sim_chain_state_tip', sql`${table.tipHeight} >= 0`),
  ],
);

/**
 * The demo PayPal sandbox (rails/paypal/demo-paypal-gateway.ts): the PayPal orders it holds, kept in the
 * database so every server process (web and worker) sees the same orders, captures and refunds, as
 * every caller of PayPal sees the same PayPal. `referenceId` is our order id, as PayPal keeps it.
 */
export const demoPaypalOrders = pgTable(
  'demo_paypal_orders',
  {
    id: text('id').primaryKey(),
    referenceId: text('reference_id').notNull(),
    valueCents: bigint('value_cents', { mode: 'bigint' }).notNull(),
    status: text('status', { enum: ['CREATED', 'APPROVED', 'COMPLETED', 'VOIDED'] })
      .notNull()
      .default('CREATED'),
    captureId: text('capture_id').unique(),
    /** The PayPal-Request-Id of the capture that succeeded: its retry answers the same capture. */
    captureRequestId: text('capture_request_id'),
    refundId: text('refund_id').unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('demo_paypal_orders_value', sql`${table.valueCents} > 0`),
    check(
      'demo_paypal_orders_status',
      sql`${table.status} in ('CREATED', 'APPROVED', 'COMPLETED', 'VOIDED')`,
    ),
    check(
      'demo_paypal_orders_capture',
      sql`(${table.status} = 'COMPLETED') = (${table.captureId} is not null and ${table.captureRequestId} is not null)`,
    ),
    check('demo_paypal_orders_refund', sql`${table.refundId} is null or ${table.captureId} is not null`),
  ],
);

/**
 * The demo PayPal sandbox's webhook signing key: exactly one row, id 1, made by the first process to
 * need it, so a webhook signed by one process verifies in every other (the worker re-verifies each
 * stored delivery before applying it).
 */
export const demoPaypalState = pgTable(
  'demo_paypal_state',
  {
    id: integer('id').primaryKey().default(1),
    webhookKey: bytea('webhook_key').notNull(),
  },
  (table) => [
    check('demo_paypal_state_single_row', sql`${table.id} = 1`),
    check('demo_paypal_state_key', sql`octet_length(${table.webhookKey}) = 32`),
  ],
);
