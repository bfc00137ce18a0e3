import { sql } from 'drizzle-orm';
import { DEFAULT_ARRIVAL_TIMING } from '@offzero/shared/api/global-settings';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
    /** Instant sell payouts through the bank's API (RTP, FedNow): the switch, charge and largest one. */
    instantActive: boolean('instant_active').notNull().default(false),
    instantBankChargesCents: bigint('instant_bank_charges_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    instantMaxPayoutCents: bigint('instant_max_payout_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`2500000`),
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
    arrivalInstant: text('arrival_instant').notNull().default(DEFAULT_ARRIVAL_TIMING.instant),
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
    /** Scam shield: a new customer's daily buy cap, and the cooling-off of a new destination (hours). */
    scamNewCustomerDailyCents: bigint('scam_new_customer_daily_cents', { mode: 'bigint' })
      .notNull()
      .default(sql`100000`),
    scamCoolingHours: integer('scam_cooling_hours').notNull().default(24),
    /** The settings group `lightning` (docs/design.md, "Lightning"): its switch and caps, in satoshis. */
    lightningActive: boolean('lightning_active').notNull().default(true),
    lightningMaxOrderSats: bigint('lightning_max_order_sats', { mode: 'bigint' })
      .notNull()
      .default(sql`5000000`),
    lightningMaxPayoutSats: bigint('lightning_max_payout_sats', { mode: 'bigint' })
      .notNull()
      .default(sql`5000000`),
    lightningDailyPayoutSats: bigint('lightning_daily_payout_sats', { mode: 'bigint' })
      .notNull()
      .default(sql`50000000`),
    /**
     * Settings group `recurring`: business days a settled recurring or deposit debit is held before
     * its bitcoin is released (docs/design.md, "Recurring buys"); 0 in demo.
     */
    recurringHoldDays: integer('recurring_hold_days').notNull().default(3),
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
    check('global_settings_recurring_hold', sql`${table.recurringHoldDays} between 0 and 30`),
    check('global_settings_timeout', sql`${table.orderSessionTimeoutSeconds} > 0`),
    check(
      'global_settings_bank_charges',
      sql`${table.zelleBankChargesCents} >= 0 and ${table.achBankChargesCents} >= 0 and ${table.wireBankChargesCents} >= 0`,
    ),
  ],
);

export type GlobalSettingsRow = typeof globalSettings.$inferSelect;

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

export type PriceSnapshotRow = typeof priceSnapshots.$inferSelect;

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
 * The listed bitcoin addresses of the list in force, as screened: bech32 addresses in lower case
 * (bech32 is case-insensitive), base58 ones exactly as listed (base58 is not).
 */
export const sanctionedAddresses = pgTable('sanctioned_addresses', {
  address: text('address').primaryKey(),
});
