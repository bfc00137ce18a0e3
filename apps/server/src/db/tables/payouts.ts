import { sql } from 'drizzle-orm';
import { FEE_TIERS, PAYOUT_BATCH_STATUSES } from '@offzero/shared/api/payout-batches';
import {
  bigint,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { orders } from './orders';
import { PAYOUT_PURPOSES, PAYOUT_RAILS, PAYOUT_SENDERS, PAYOUT_STATES } from '@offzero/shared/api/payouts';

export type {
  PayoutPurpose,
  PayoutRailId as PayoutRail,
  PayoutSenderName,
  PayoutState,
} from '@offzero/shared/api/payouts';

/**
 * Payouts (docs/design.md, "Payouts claim the order first"): every payment or return of coins to a
 * customer, at most one per order and purpose. The intent (`submitted`) commits with the check that
 * the order may be paid, before any money moves; the result (`settled`: txid and vout, or the bank
 * reference) is recorded afterwards. An intent without a result is never sent again: staff check the
 * chain. A bitcoin output (txid, vout) pays one order only.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    kind: text('kind', { enum: ['btc', 'usd'] }).notNull(),
    state: text('state', { enum: PAYOUT_STATES }).notNull(),
    rail: text('rail', { enum: PAYOUT_RAILS }).notNull(),
    sender: text('sender', { enum: PAYOUT_SENDERS }).notNull(),
    purpose: text('purpose', { enum: PAYOUT_PURPOSES }).notNull().default('payout'),
    /** Where the bitcoin goes (a buy's payout address, or where a sell's coins were returned). */
    address: text('address'),
    amountSats: bigint('amount_sats', { mode: 'bigint' }),
    txid: text('txid'),
    vout: integer('vout'),
    /** The bank or Zelle reference of a dollar payout. */
    reference: text('reference'),
    /** The payout batch whose transaction pays this order, when it was paid in a batch. */
    batchId: uuid('batch_id'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    // One live payout per order and purpose: a failed, cancelled or returned one is followed by a new row.
    uniqueIndex('payouts_order_purpose_unique')
      .on(table.orderId, table.purpose)
      .where(sql`${table.state} not in ('failed', 'cancelled', 'returned')`),
    // Every payout of an order, whatever its state (the due lists' "not paid yet", the order's panel):
    // the unique index above holds only live ones, so it cannot answer those.
    index('payouts_order_idx').on(table.orderId),
    uniqueIndex('payouts_output_unique').on(table.txid, table.vout),
    // The bank's webhook names its transfer: the payout holding it is found by its reference.
    index('payouts_reference_idx').on(table.reference).where(sql`${table.reference} is not null`),
    check('payouts_vout', sql`${table.vout} is null or ${table.vout} >= 0`),
    check(
      'payouts_settled_has_result',
      sql`${table.state} <> 'settled' or ${table.txid} is not null or ${table.reference} is not null`,
    ),
  ],
);

export type PayoutRow = typeof payouts.$inferSelect;

/**
 * Payout batches (docs/design.md): one transaction from the operator's watch-only payout wallet paying
 * several buys. The server keeps the unsigned PSBT it built and the exact inputs, outputs and change it
 * expects back signed. A fee bump is a new row (`replacesBatchId`) spending the same inputs.
 */
export const payoutBatches = pgTable(
  'payout_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    status: text('status', { enum: PAYOUT_BATCH_STATUSES }).notNull(),
    feeTier: text('fee_tier', { enum: FEE_TIERS }).notNull(),
    /** The fee rate the PSBT was built for, in sat per 1000 vB (whole numbers). */
    feeRateSatPerKvb: integer('fee_rate_sat_per_kvb').notNull(),
    feeSats: bigint('fee_sats', { mode: 'bigint' }).notNull(),
    /** What the customers' outputs add up to. */
    payoutSats: bigint('payout_sats', { mode: 'bigint' }).notNull(),
    /** The wallet's inputs: [{ txid, vout, valueSats, chain, index }], amounts as decimal strings. */
    inputs: jsonb('inputs').$type<PayoutBatchInput[]>().notNull(),
    changeAddress: text('change_address'),
    changeIndex: integer('change_index'),
    changeSats: bigint('change_sats', { mode: 'bigint' }).notNull(),
    unsignedPsbt: text('unsigned_psbt').notNull(),
    /** The signed transaction (raw hex) and its id, recorded before it is broadcast. */
    signedTxHex: text('signed_tx_hex'),
    txid: text('txid'),
    replacesBatchId: uuid('replaces_batch_id'),
    blockHeight: integer('block_height'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    broadcastAt: timestamp('broadcast_at', { withTimezone: true }),
  },
  (table) => [
    index('payout_batches_status_idx').on(table.status),
    uniqueIndex('payout_batches_txid_unique').on(table.txid),
    // A batch is fee-bumped once: the bump after that bumps the newest version.
    uniqueIndex('payout_batches_replaces_unique').on(table.replacesBatchId),
    foreignKey({ columns: [table.replacesBatchId], foreignColumns: [table.id] }),
    check('payout_batches_fee', sql`${table.feeSats} > 0`),
    check('payout_batches_change', sql`${table.changeSats} >= 0`),
  ],
);

export interface PayoutBatchInput {
  txid: string;
  vout: number;
  valueSats: string;
  /** The wallet's derivation: chain 0 (receive) or 1 (change), then the index. */
  chain: 0 | 1;
  index: number;
}

export type PayoutBatchRow = typeof payoutBatches.$inferSelect;

/** The customers' outputs of a batch version: one per order, the vout known once signed. */
export const payoutBatchOrders = pgTable(
  'payout_batch_orders',
  {
    batchId: uuid('batch_id')
      .notNull()
      .references(() => payoutBatches.id),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    address: text('address').notNull(),
    amountSats: bigint('amount_sats', { mode: 'bigint' }).notNull(),
    vout: integer('vout'),
  },
  (table) => [
    primaryKey({ columns: [table.batchId, table.orderId] }),
    index('payout_batch_orders_order_idx').on(table.orderId),
  ],
);

export type PayoutBatchOrderRow = typeof payoutBatchOrders.$inferSelect;

/**
 * Which batch holds an order (its first version): one row per order, so two batches can never both take
 * it, however many staff build at once. Abandoning an unsigned batch deletes its claims.
 */
export const payoutBatchClaims = pgTable('payout_batch_claims', {
  orderId: uuid('order_id')
    .primaryKey()
    .references(() => orders.id),
  batchId: uuid('batch_id')
    .notNull()
    .references(() => payoutBatches.id),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
