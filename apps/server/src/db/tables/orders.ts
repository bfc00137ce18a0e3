import { sql } from 'drizzle-orm';
import { ORDER_ORIGINS, ORDER_STATUSES, ORDER_TYPES, PAYMENT_METHODS } from '@offzero/shared/api/orders';
import {
  bigint,
  boolean,
  check,
  date,
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
import { users } from './accounts';
import { priceSnapshots } from './settings';

export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/**
 * Buy and sell orders. `status` is written only by the order state machine (orders/order-state.ts).
 * For a buy, `walletAddress` is the customer's address and `txn` our payout; for a sell,
 * `walletAddress` is the deposit address we derived (index `depositIndex`) and `txn` their deposit.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type', { enum: ORDER_TYPES }).notNull(),
    pair: text('pair').notNull().default('BTC-USD'),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('pending'),
    amountSats: bigint('amount_sats', { mode: 'bigint' }).notNull(),
    valueCents: bigint('value_cents', { mode: 'bigint' }).notNull(),
    priceCents: bigint('price_cents', { mode: 'bigint' }).notNull(),
    platformFeeCents: bigint('platform_fee_cents', { mode: 'bigint' }).notNull(),
    networkFeeCents: bigint('network_fee_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    bankFeeCents: bigint('bank_fee_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    priceSnapshotId: uuid('price_snapshot_id').references(() => priceSnapshots.id),
    quoteExpiresAt: timestamp('quote_expires_at', { withTimezone: true }).notNull(),
    walletAddress: text('wallet_address'),
    depositIndex: integer('deposit_index'),
    /**
     * A buy's entry in the customer's address book (payout-addresses/): its payout waits until that
     * entry is usable. For an xpub entry, `payoutIndex` is the derivation index (`m/0/i`) of the
     * address paid, recorded with `walletAddress`; two buys never share an entry's index.
     */
    payoutAddressId: uuid('payout_address_id').references(() => payoutAddresses.id),
    payoutIndex: integer('payout_index'),
    paymentMethod: text('payment_method', { enum: PAYMENT_METHODS }),
    /** The receiving details shown to the customer when they chose the method (a copy, not a reference). */
    receivingDetails: jsonb('receiving_details').$type<Record<string, string>>(),
    paymentSubmittedAt: timestamp('payment_submitted_at', { withTimezone: true }),
    /** An operator confirmed the customer's money arrived (a PayPal capture confirms itself). */
    paymentConfirmedAt: timestamp('payment_confirmed_at', { withTimezone: true }),
    paymentConfirmedBy: text('payment_confirmed_by'),
    paypalOrderId: text('paypal_order_id'),
    paypalCaptureId: text('paypal_capture_id'),
    bankTxn: text('bank_txn'),
    txn: text('txn'),
    confirmations: integer('confirmations').notNull().default(0),
    receivedSats: bigint('received_sats', { mode: 'bigint' }),
    /**
     * A sell paid by Lightning (docs/design.md, "Lightning"): the operator node's invoice for exactly the
     * quoted satoshis, expiring with the quote, beside the on-chain address. `lightningPaidAt` is set
     * once, in the transaction that credits the order.
     */
    lightningInvoice: text('lightning_invoice'),
    lightningPaymentHash: text('lightning_payment_hash'),
    lightningExpiresAt: timestamp('lightning_expires_at', { withTimezone: true }),
    lightningPaidAt: timestamp('lightning_paid_at', { withTimezone: true }),
    /**
     * The Lightning proof of payment (docs/design.md, "Lightning"): the preimage of the payment hash in
     * `txn`, of a buy's settled payout or of a sell's incoming payment. Receipts and tax files show it.
     */
    lightningPreimage: text('lightning_preimage'),
    flag: text('flag'),
    flagNote: text('flag_note'),
    cancelReason: text('cancel_reason'),
    /** The places rules version (and the customer's place) the order was checked against. */
    jurisdictionVersion: integer('jurisdiction_version'),
    jurisdictionCode: text('jurisdiction_code'),
    /** A buy's payout waits until then: its destination was never paid and is not proven (scam shield). */
    coolingUntil: timestamp('cooling_until', { withTimezone: true }),
    /** A new customer's answer to the scam question, kept with their first buy. */
    scamCheck: jsonb('scam_check').$type<{ ownWallet: boolean; someoneAskedMe: boolean }>(),
    /** Who started the buy when not the customer at checkout: a recurring plan or a bank deposit. */
    origin: text('origin', { enum: ORDER_ORIGINS }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('orders_user_created_idx').on(table.userId, table.createdAt),
    // Status first for the sweeps and queues that look for one status; then the customer and the
    // creation time, so that a plan reaching for a status through this index still reads only one
    // customer's orders of that status: a save's double-submission check (a pending twin of the last
    // seconds) once read every customer's pending orders through an index on the status alone.
    index('orders_status_user_created_idx').on(table.status, table.userId, table.createdAt),
    // The back office at scale (docs/performance.md, "At scale"): the order desk's pages (newest first,
    // by keyset), the work queue's lists (oldest change first), the payout due list (oldest first), the
    // flagged orders, and the year's completed sells of the 1099-DA file in trade-time order, each read
    // from an index in its own order.
    index('orders_created_id_idx').on(table.createdAt, table.id),
    index('orders_type_status_updated_idx').on(table.type, table.status, table.updatedAt),
    index('orders_type_status_created_idx').on(table.type, table.status, table.createdAt),
    index('orders_flagged_updated_idx')
      .on(table.updatedAt)
      .where(sql`${table.flag} is not null`),
    index('orders_completed_trade_time_idx')
      .on(table.type, sql`coalesce(${table.completedAt}, ${table.createdAt})`, table.id)
      .where(sql`${table.status} = 'completed'`),
    // Transaction monitoring's "who else paid this destination" (cases.repository.ts): a buy's address,
    // a sell's bank account number, each as the rule spells it, so one destination reads its own orders.
    index('orders_buy_destination_idx')
      .on(sql`lower(${table.walletAddress})`)
      .where(sql`${table.type} = 'buy'`),
    index('orders_sell_bank_account_idx')
      .on(sql`regexp_replace(${table.receivingDetails} ->> 'account_number', '\\s', '', 'g')`)
      .where(sql`${table.type} = 'sell'`),
    uniqueIndex('orders_paypal_order_unique').on(table.paypalOrderId),
    uniqueIndex('orders_paypal_capture_unique').on(table.paypalCaptureId),
    uniqueIndex('orders_deposit_index_unique').on(table.depositIndex),
    uniqueIndex('orders_lightning_payment_hash_unique').on(table.lightningPaymentHash),
    uniqueIndex('orders_payout_index_unique').on(table.payoutAddressId, table.payoutIndex),
    check(
      'orders_amounts_positive',
      sql`${table.amountSats} > 0 and ${table.valueCents} > 0 and ${table.priceCents} > 0`,
    ),
    check(
      'orders_fees_non_negative',
      sql`${table.platformFeeCents} >= 0 and ${table.networkFeeCents} >= 0 and ${table.bankFeeCents} >= 0`,
    ),
  ],
);

/**
 * The value of each customer's orders that count toward their trading limits (every status but expired
 * and cancelled), per UTC day of creation. Kept by a trigger on `orders` (migration 0022), in the same
 * transaction as the order's change, so it always equals the sum of those orders. A limit window then
 * adds up at most 31 days here, and scans only the orders of its first, partial day
 * (limits/limits.repository.ts), however many orders the customer has: a save used to add up every
 * order of the last 30 days under the customer's lock.
 */
export const orderValueDays = pgTable(
  'order_value_days',
  {
    userId: uuid('user_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    valueCents: bigint('value_cents', { mode: 'bigint' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] })],
);

/**
 * Locked quotes (docs/design.md): the figures a customer was shown at Continue, fixed on the server
 * until `expires_at` (the order session timeout). An order saved with the quote's id must carry these
 * figures and claims the quote (`order_id`, `used_at`), once.
 */
export const quotes = pgTable(
  'quotes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type', { enum: ORDER_TYPES }).notNull(),
    amountSats: bigint('amount_sats', { mode: 'bigint' }).notNull(),
    valueCents: bigint('value_cents', { mode: 'bigint' }).notNull(),
    priceCents: bigint('price_cents', { mode: 'bigint' }).notNull(),
    platformFeeCents: bigint('platform_fee_cents', { mode: 'bigint' }).notNull(),
    networkFeeCents: bigint('network_fee_cents', { mode: 'bigint' }).notNull(),
    bankFeeCents: bigint('bank_fee_cents', { mode: 'bigint' }).notNull(),
    /** The mid-market price when quoted, for the spread the customer is shown. */
    midPriceCents: bigint('mid_price_cents', { mode: 'bigint' }).notNull(),
    spreadCents: bigint('spread_cents', { mode: 'bigint' }).notNull(),
    /** A sell's payout method (its bank charges are in the figures). */
    paymentMethod: text('payment_method', { enum: PAYMENT_METHODS }),
    priceSnapshotId: uuid('price_snapshot_id')
      .notNull()
      .references(() => priceSnapshots.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    orderId: uuid('order_id').references(() => orders.id),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('quotes_user_created_idx').on(table.userId, table.createdAt),
    index('quotes_order_idx').on(table.orderId),
    check(
      'quotes_amounts_positive',
      sql`${table.amountSats} > 0 and ${table.valueCents} > 0 and ${table.priceCents} > 0`,
    ),
  ],
);

export type QuoteRow = typeof quotes.$inferSelect;

/**
 * The customer's payout address book (docs/design.md): a plain address or an extended public key
 * (xpub/ypub/zpub, tpub/upub/vpub). A new entry is `unconfirmed` until the customer opens the e-mailed
 * link (the token is stored as a SHA-256 hash, single use, expiring); it is usable for payouts from
 * `usableAt` (confirmation + PAYOUT_ADDRESS_COOLDOWN_HOURS). A removed entry keeps its row (buys point
 * at it) with `removedAt` set. `nextIndex` is the next derivation index of an xpub entry, taken with an
 * atomic increment so two payouts never share an address.
 */
export const payoutAddresses = pgTable(
  'payout_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    label: text('label').notNull(),
    address: text('address'),
    xpub: text('xpub'),
    /** The settings wallet card: the address a new buy proposes. */
    isDefault: boolean('is_default').notNull().default(false),
    confirmTokenHash: text('confirm_token_hash'),
    confirmTokenExpiresAt: timestamp('confirm_token_expires_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    usableAt: timestamp('usable_at', { withTimezone: true }),
    /** A BIP-322 signature proved the customer holds the key of the address (an xpub's first one). */
    provenAt: timestamp('proven_at', { withTimezone: true }),
    nextIndex: integer('next_index').notNull().default(0),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('payout_addresses_user_idx').on(table.userId),
    uniqueIndex('payout_addresses_user_address_unique')
      .on(table.userId, table.address)
      .where(sql`${table.removedAt} is null`),
    uniqueIndex('payout_addresses_user_xpub_unique')
      .on(table.userId, table.xpub)
      .where(sql`${table.removedAt} is null`),
    uniqueIndex('payout_addresses_one_default')
      .on(table.userId)
      .where(sql`${table.isDefault} and ${table.removedAt} is null`),
    check('payout_addresses_one_kind', sql`(${table.address} is null) <> (${table.xpub} is null)`),
    check('payout_addresses_next_index', sql`${table.nextIndex} >= 0`),
  ],
);

export type PayoutAddressRow = typeof payoutAddresses.$inferSelect;

/** The audit trail of every order state change: who, when, from, to, why. */
export const orderEvents = pgTable(
  'order_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id),
    fromStatus: text('from_status', { enum: ORDER_STATUSES }),
    toStatus: text('to_status', { enum: ORDER_STATUSES }).notNull(),
    actor: text('actor').notNull(),
    reason: text('reason').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('order_events_order_idx').on(table.orderId, table.createdAt)],
);

export type OrderRow = typeof orders.$inferSelect;
/**
 * What a sell order was quoted for before any deposit re-priced it (docs/design.md): written when its
 * first deposit is credited, so every later deposit is priced on the sum against the same terms. The
 * quoted amount is paid at `basePriceCents` (the locked price, or the price of the day for a deposit
 * that came after the window closed); anything beyond it at the lower of the locked and current price.
 */
export const sellDepositTerms = pgTable(
  'sell_deposit_terms',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id),
    quotedSats: bigint('quoted_sats', { mode: 'bigint' }).notNull(),
    lockedPriceCents: bigint('locked_price_cents', { mode: 'bigint' }).notNull(),
    basePriceCents: bigint('base_price_cents', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check(
      'sell_deposit_terms_positive',
      sql`${table.quotedSats} > 0 and ${table.lockedPriceCents} > 0 and ${table.basePriceCents} > 0`,
    ),
  ],
);

export type SellDepositTermsRow = typeof sellDepositTerms.$inferSelect;
