import { sql } from 'drizzle-orm';
import { KYC_PROVIDERS, KYC_STATUSES } from '@offzero/shared/api/kyc';
import { TIN_TYPES } from '@offzero/shared/api/tax';
import {
  bigint,
  boolean,
  check,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { bytea } from './columns';

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
    // The back office finds a customer by whole phone number (docs/performance.md, "At scale"); part of
    // an e-mail is found by a trigram index, written by hand in migration 0034.
    index('users_phone_number_idx').on(table.phoneNumber),
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
    purpose: text('purpose', { enum: ['new-account', 'login', 'phone', 'step-up', 'recovery-email', 'recovery-sms'] }).notNull(),
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
    /** Where the customer lives: a US state, DC or territory code (docs/design.md, "Places and the scam shield"). */
    residenceState: text('residence_state'),
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
