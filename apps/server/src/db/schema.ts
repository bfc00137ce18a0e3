import { sql } from 'drizzle-orm';
import { FOUR_EYES_ACTIONS, OUTBOX_CHANNELS, auditTargetTypes } from '@offzero/shared/api/admin';
import { CASE_OUTCOMES, CASE_RULES, CASE_STATUSES } from '@offzero/shared/api/cases';
import { DEFAULT_ARRIVAL_TIMING } from '@offzero/shared/api/global-settings';
import { KYC_PROVIDERS, KYC_STATUSES } from '@offzero/shared/api/kyc';
import { ORDER_STATUSES, ORDER_TYPES, PAYMENT_METHODS } from '@offzero/shared/api/orders';
import { FEE_TIERS, PAYOUT_BATCH_STATUSES } from '@offzero/shared/api/payout-batches';
import { TIN_TYPES } from '@offzero/shared/api/tax';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Raw bytes (an uploaded identity document). */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * The whole database schema. Money is stored as integer cents (`_cents`) and satoshis (`_sats`);
 * percentages as basis points (`_bps`). Nothing monetary is ever a float.
 */

/** The operator's global settings: exactly one row, id 1. */
export const globalSettings = pgTable(
  'global_settings',
  {
    id: integer('id').primaryKey().default(1),
    platformFeeBps: integer('platform_fee_bps').notNull(),
    minOrderCents: bigint('min_order_cents', { mode: 'bigint' }).notNull(),
    maxOrderCents: bigint('max_order_cents', { mode: 'bigint' }).notNull(),
    orderSessionTimeoutSeconds: integer('order_session_timeout_seconds').notNull(),
    paypalActive: boolean('paypal_active').notNull(),
    zelleActive: boolean('zelle_active').notNull(),
    zellePaymentAddress: text('zelle_payment_address').notNull(),
    zelleBankChargesCents: bigint('zelle_bank_charges_cents', { mode: 'bigint' }).notNull(),
    achActive: boolean('ach_active').notNull(),
    achAccountHolder: text('ach_account_holder').notNull(),
    achAccountNumber: text('ach_account_number').notNull(),
    achBankAddress: text('ach_bank_address').notNull(),
    achRoutingNumber: text('ach_routing_number').notNull(),
    achBankChargesCents: bigint('ach_bank_charges_cents', { mode: 'bigint' }).notNull(),
    wireActive: boolean('wire_active').notNull(),
    wireAccountHolder: text('wire_account_holder').notNull(),
    wireAccountNumber: text('wire_account_number').notNull(),
    wireBankAddress: text('wire_bank_address').notNull(),
    wireSwiftCode: text('wire_swift_code').notNull(),
    wireBankChargesCents: bigint('wire_bank_charges_cents', { mode: 'bigint' }).notNull(),
    referralRewardBps: integer('referral_reward_bps').notNull(),
    referralTradesEligible: integer('referral_trades_eligible').notNull(),
    /** A buy marked paid or a sell paid out at or above this value needs a second admin (four eyes). */
    fourEyesCents: bigint('four_eyes_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`300000`),
    /** When the customer's money or bitcoin arrives by each payment method, in the operator's words. */
    arrivalPaypal: text('arrival_paypal').notNull().default(DEFAULT_ARRIVAL_TIMING.paypal),
    arrivalZelle: text('arrival_zelle').notNull().default(DEFAULT_ARRIVAL_TIMING.zelle),
    arrivalAch: text('arrival_ach').notNull().default(DEFAULT_ARRIVAL_TIMING.ach),
    arrivalWire: text('arrival_wire').notNull().default(DEFAULT_ARRIVAL_TIMING.wire),
    /** Trading limits per KYC tier over rolling 24 hours, 7 days and 30 days (docs/design.md). */
    limitTier1DayCents: bigint('limit_tier1_day_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`1000000`),
    limitTier1WeekCents: bigint('limit_tier1_week_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`2000000`),
    limitTier1MonthCents: bigint('limit_tier1_month_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`5000000`),
    limitTier2DayCents: bigint('limit_tier2_day_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`5000000`),
    limitTier2WeekCents: bigint('limit_tier2_week_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`10000000`),
    limitTier2MonthCents: bigint('limit_tier2_month_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`25000000`),
    /**
     * A buy paid out at or above this value needs a proven payout address (a BIP-322 signature);
     * null: no proof is required.
     */
    proofRequiredCents: bigint('proof_required_cents', { mode: 'bigint' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('global_settings_single_row', sql`${table.id} = 1`),
    check(
      'global_settings_limits_positive',
      sql`least(${table.limitTier1DayCents}, ${table.limitTier1WeekCents}, ${table.limitTier1MonthCents}, ${table.limitTier2DayCents}, ${table.limitTier2WeekCents}, ${table.limitTier2MonthCents}) > 0`,
    ),
    check('global_settings_fee_range', sql`${table.platformFeeBps} between 0 and 10000`),
    check('global_settings_reward_range', sql`${table.referralRewardBps} between 0 and 10000`),
    check(
      'global_settings_order_sizes',
      sql`${table.minOrderCents} > 0 and ${table.minOrderCents} <= ${table.maxOrderCents}`,
    ),
    check('global_settings_timeout', sql`${table.orderSessionTimeoutSeconds} > 0`),
    check(
      'global_settings_bank_charges',
      sql`${table.zelleBankChargesCents} >= 0 and ${table.achBankChargesCents} >= 0 and ${table.wireBankChargesCents} >= 0`,
    ),
  ],
);

export type GlobalSettingsRow = typeof globalSettings.$inferSelect;

/** A customer or operator. A user exists once their e-mail code is verified (registration step 2). */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    phoneNumber: text('phone_number'),
    emailVerified: boolean('email_verified').notNull().default(false),
    phoneVerified: boolean('phone_verified').notNull().default(false),
    image: text('image'),
    googleId: text('google_id'),
    referralCode: text('referral_code'),
    referredByUserId: uuid('referred_by_user_id'),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Set when money came back out of an order (reversal, chargeback): may log in and read, not trade. */
    restrictedAt: timestamp('restricted_at', { withTimezone: true }),
    restrictedReason: text('restricted_reason'),
    /** The KYC tier whose trading limits apply (1 or 2); staff move customers between tiers. */
    limitTier: integer('limit_tier').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    uniqueIndex('users_google_id_unique').on(table.googleId),
    uniqueIndex('users_referral_code_unique').on(table.referralCode),
    // Referral codes are matched without case (referrals/referral.repository.ts).
    index('users_referral_code_canonical_idx').on(sql`lower(${table.referralCode})`),
    foreignKey({ columns: [table.referredByUserId], foreignColumns: [table.id] }),
    check('users_limit_tier', sql`${table.limitTier} in (1, 2)`),
  ],
);

/** One row per signed-in device. Logout and disabling an account revoke rows, ending the token. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

/**
 * One-time codes, stored as an HMAC bound to purpose and destination, so a login code can never
 * verify a phone and a code for one address never works for another.
 */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    purpose: text('purpose', { enum: ['new-account', 'login', 'phone', 'step-up'] }).notNull(),
    destination: text('destination').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    requesterIp: text('requester_ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('otp_codes_lookup_idx').on(table.purpose, table.destination, table.createdAt),
    check('otp_codes_attempts_range', sql`${table.attempts} >= 0`),
  ],
);

/** Demo-mode delivery of e-mail and SMS: shown at /dev/outbox instead of leaving the machine. */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    code: text('code'),
    /** The outbox delivery it came from: a retried delivery lands once (null for one-time codes). */
    deliveryId: text('delivery_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('outbox_messages_to_idx').on(table.to, table.createdAt),
    uniqueIndex('outbox_messages_delivery_unique').on(table.deliveryId),
  ],
);

export type UserRow = typeof users.$inferSelect;
export type OtpPurpose = (typeof otpCodes.$inferSelect)['purpose'];

/** A customer's own payout and notification settings ("User settings"). */
export const userSettings = pgTable('user_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  bankName: text('bank_name'),
  accountName: text('account_name'),
  accountNumber: text('account_number'),
  bankAddress: text('bank_address'),
  routingNumber: text('routing_number'),
  swift: text('swift'),
  walletAddress: text('wallet_address'),
  zelleEmail: text('zelle_email'),
  receiveEmail: boolean('receive_email').notNull().default(true),
  receiveSms: boolean('receive_sms').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type KycStatus = (typeof KYC_STATUSES)[number];

/** Identity verification: one record per customer, decided by the provider or an admin, never the browser. */
export const kycRecords = pgTable(
  'kyc_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    provider: text('provider', { enum: KYC_PROVIDERS }).notNull(),
    status: text('status', { enum: KYC_STATUSES }).notNull(),
    applicantId: text('applicant_id'),
    legalName: text('legal_name'),
    dateOfBirth: text('date_of_birth'),
    country: text('country'),
    documentType: text('document_type'),
    documentNumber: text('document_number'),
    documentImage: bytea('document_image'),
    documentMimeType: text('document_mime_type'),
    reviewNote: text('review_note'),
    decidedBy: text('decided_by'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the provider created the newest webhook event applied to this record: older ones change nothing. */
    providerEventAt: timestamp('provider_event_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('kyc_records_user_unique').on(table.userId),
    index('kyc_records_status_idx').on(table.status),
  ],
);

/** Provider webhook deliveries already processed, so a replay changes nothing. */
/**
 * The inbox of provider webhooks (docs/design.md): every verified delivery, stored before it is
 * answered with what is needed to verify it again (the exact bytes and the signature headers), then
 * applied by the `process-inbox` job. One row per provider and delivery key (sha256 of the raw body),
 * so a replay is recognised; `processed_at` is set in the transaction that applies it, so it is
 * applied once. Rows received before the inbox existed have no body and were applied on receipt.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    deliveryKey: text('delivery_key').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    rawBody: bytea('raw_body'),
    /** The headers the signature check reads (lower-case names). */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    status: text('status', { enum: ['pending', 'processed', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    processedAt: timestamp('processed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('webhook_deliveries_unique').on(table.provider, table.deliveryKey),
    index('webhook_deliveries_due_idx').on(table.status, table.nextAttemptAt),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/**
 * The delivery outbox (docs/design.md), not to be confused with `outbox_messages` (the demo's
 * e-mail and SMS sink): every e-mail, SMS and realtime event a state change causes, written in the
 * transaction of the change and delivered by the `deliver-outbox` job with retries. One row per event,
 * channel and recipient, so a double write delivers once.
 */
export const outboxEvents = pgTable(
  'outbox_events',
  {
    /** Also the delivery order: rows written in one transaction share their `created_at`. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    eventKey: text('event_key').notNull(),
    channel: text('channel', { enum: OUTBOX_CHANNELS }).notNull(),
    /** An e-mail address, a phone number, or (realtime) the user id. */
    recipient: text('recipient').notNull(),
    userId: uuid('user_id').references(() => users.id),
    /**
     * `{ subject, text, link?, deliveryId }` for a message (`deliveryId`: a random UUID, its e-mail's
     * Message-ID); the realtime event (`{ type, payload }`) for realtime.
     */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    /** Tries made (claimed), the first included. */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('outbox_events_once').on(table.eventKey, table.channel, table.recipient),
    index('outbox_events_due_idx').on(table.status, table.nextAttemptAt),
    index('outbox_events_user_idx').on(table.userId, table.status),
  ],
);

export type OutboxEventRow = typeof outboxEvents.$inferSelect;

/**
 * A reward earned by `referrerUserId` when the customer they referred (`tradingUserId`) completed an
 * eligible order: `rewardCents` is the referral percentage of that order's platform fee. One per order.
 */
export const referralRewards = pgTable(
  'referral_rewards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    referrerUserId: uuid('referrer_user_id')
      .notNull()
      .references(() => users.id),
    tradingUserId: uuid('trading_user_id')
      .notNull()
      .references(() => users.id),
    orderId: uuid('order_id').notNull(),
    platformFeeCents: bigint('platform_fee_cents', { mode: 'bigint' }).notNull(),
    rewardCents: bigint('reward_cents', { mode: 'bigint' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('referral_rewards_order_unique').on(table.orderId),
    index('referral_rewards_referrer_idx').on(table.referrerUserId, table.createdAt),
    check('referral_rewards_amounts', sql`${table.rewardCents} >= 0 and ${table.platformFeeCents} >= 0`),
  ],
);

export type UserSettingsRow = typeof userSettings.$inferSelect;
export type KycRecordRow = typeof kycRecords.$inferSelect;

/** Every price the server has quoted from, so an order can be checked against what the customer saw. */
export const priceSnapshots = pgTable(
  'price_snapshots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sellPriceCents: bigint('sell_price_cents', { mode: 'bigint' }).notNull(),
    buyPriceCents: bigint('buy_price_cents', { mode: 'bigint' }).notNull(),
    networkFeeSats: bigint('network_fee_sats', { mode: 'bigint' }).notNull(),
    source: text('source').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('price_snapshots_fetched_idx').on(table.fetchedAt)],
);

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
    flag: text('flag'),
    flagNote: text('flag_note'),
    cancelReason: text('cancel_reason'),
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
    uniqueIndex('orders_paypal_order_unique').on(table.paypalOrderId),
    uniqueIndex('orders_paypal_capture_unique').on(table.paypalCaptureId),
    uniqueIndex('orders_deposit_index_unique').on(table.depositIndex),
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
export type PriceSnapshotRow = typeof priceSnapshots.$inferSelect;

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

/**
 * Idempotency keys (docs/design.md): the first answer to a signed-in user's call with an
 * `Idempotency-Key`, replayed for 24 hours to the same user, path and key. A row is claimed
 * (`running`) before the handler runs, so two calls at once make one effect; a 5xx answer deletes it.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `POST /api/order/save`: the method and the path the key was used on. */
    route: text('route').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['running', 'done'] })
      .notNull()
      .default('running'),
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('idempotency_keys_unique').on(table.userId, table.route, table.key),
    index('idempotency_keys_created_idx').on(table.createdAt),
  ],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;

/** A payout's states; only `payouts/payout-state.ts` moves a payout between them. */
export const payoutStates = ['requested', 'submitted', 'settled', 'failed', 'returned', 'cancelled'] as const;
export type PayoutState = (typeof payoutStates)[number];
/** The rail the money or coins leave on: the chain, or a sell's payout method. */
export const payoutRails = ['onchain', 'zelle', 'ach', 'wire'] as const;
export type PayoutRail = (typeof payoutRails)[number];
/** The one code path allowed to send a payout: staff by hand, a signed batch, or the demo chain. */
export const payoutSenders = ['operator', 'batch', 'demo-chain'] as const;
export type PayoutSenderName = (typeof payoutSenders)[number];
/** Paying an order out, or returning a sell's coins instead of paying for them. */
export const payoutPurposes = ['payout', 'refund'] as const;
export type PayoutPurpose = (typeof payoutPurposes)[number];

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
    state: text('state', { enum: payoutStates }).notNull(),
    rail: text('rail', { enum: payoutRails }).notNull(),
    sender: text('sender', { enum: payoutSenders }).notNull(),
    purpose: text('purpose', { enum: payoutPurposes }).notNull().default('payout'),
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
    // One live payout per order and purpose: a failed or cancelled one is followed by a new row.
    uniqueIndex('payouts_order_purpose_unique')
      .on(table.orderId, table.purpose)
      .where(sql`${table.state} not in ('failed', 'cancelled')`),
    uniqueIndex('payouts_output_unique').on(table.txid, table.vout),
    check('payouts_vout', sql`${table.vout} is null or ${table.vout} >= 0`),
    check(
      'payouts_settled_has_result',
      sql`${table.state} <> 'settled' or ${table.txid} is not null or ${table.reference} is not null`,
    ),
  ],
);

export type PayoutRow = typeof payouts.$inferSelect;

/**
 * Registration tokens (docs/design.md): the JWT names its row, which ends it when the phone is verified,
 * the user logs out or 15 minutes pass. Single use: the session it gives consumes it.
 */
export const registrationTokens = pgTable(
  'registration_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('registration_tokens_user_idx').on(table.userId)],
);

/**
 * An admin's TOTP (RFC 6238) secret, encrypted (AES-256-GCM). `enrolledAt` is null until the first code
 * is verified; `lastStep` is the time step of the last accepted code, so no code counts twice.
 */
export const adminMfa = pgTable('admin_mfa', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  secretEncrypted: text('secret_encrypted').notNull(),
  enrolledAt: timestamp('enrolled_at', { withTimezone: true }),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The second login step of an enrolled admin: a short-lived, single-use token (stored as a hash). */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('mfa_challenges_token_unique').on(table.tokenHash)],
);

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
 * The sanctions list in force (docs/design.md): exactly one row, id 1, shared by every process. It
 * names the last list loaded (its version and when) and the last refresh attempt: a refresh that
 * failed keeps the list and records why, which the metrics and the back office raise as an alert.
 */
export const sanctionsListState = pgTable(
  'sanctions_list_state',
  {
    id: integer('id').primaryKey().default(1),
    /** The list's own version: its date of issue, as YYYY-MM-DD; null before the first good load. */
    version: text('version'),
    /** Where the list in force was read from (a URL or a file path). */
    source: text('source'),
    addressCount: integer('address_count').notNull().default(0),
    loadedAt: timestamp('loaded_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    /** Why the last refresh failed; null when it succeeded. */
    lastError: text('last_error'),
    lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  },
  (table) => [
    check('sanctions_list_state_single_row', sql`${table.id} = 1`),
    check('sanctions_list_state_count', sql`${table.addressCount} >= 0`),
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

/**
 * The listed bitcoin addresses of the list in force, as screened: bech32 addresses in lower case
 * (bech32 is case-insensitive), base58 ones exactly as listed (base58 is not).
 */
export const sanctionedAddresses = pgTable('sanctioned_addresses', {
  address: text('address').primaryKey(),
});

/**
 * A customer's Form W-9 (docs/design.md): one per customer, replaced when filed again. The TIN is only
 * stored encrypted (AES-256-GCM under DATA_ENCRYPTION_KEY, tax/tin-cipher.ts); its last four digits
 * are kept apart so that screens and files can show the masked form without decrypting anything.
 */
export const taxIdentities = pgTable('tax_identities', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  legalName: text('legal_name').notNull(),
  tinType: text('tin_type', { enum: TIN_TYPES }).notNull(),
  tinEncrypted: text('tin_encrypted').notNull(),
  tinLast4: text('tin_last4').notNull(),
  addressLine1: text('address_line1').notNull(),
  city: text('city').notNull(),
  state: text('state').notNull(),
  postalCode: text('postal_code').notNull(),
  certifiedAt: timestamp('certified_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type TaxIdentityRow = typeof taxIdentities.$inferSelect;

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
