import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { STEP_UP_ACTIONS } from '@offzero/shared/api/passkeys';
import { users } from './accounts';
import { bytea, createdAtColumn, idColumn, timestampTz } from './columns';

/**
 * A user's WebAuthn credential (docs/design.md, "Passkeys"). The credential id is unique across all
 * users, so an assertion names exactly one account; the signature counter only moves forward.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** base64url, as the authenticator gave it. */
    credentialId: text('credential_id').notNull(),
    /** COSE public key. */
    publicKey: bytea('public_key').notNull(),
    signCount: bigint('sign_count', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    name: text('name').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: createdAtColumn(),
    lastUsedAt: timestampTz('last_used_at'),
  },
  (table) => [
    uniqueIndex('passkeys_credential_id_unique').on(table.credentialId),
    index('passkeys_user_idx').on(table.userId),
    check('passkeys_sign_count_range', sql`${table.signCount} >= 0`),
  ],
);

/**
 * A challenge the server made (registration, login, an admin's second step, or a step-up bound to one
 * action and the hash of its details): single use, five minutes, in the database so any process
 * verifies it.
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    id: idColumn(),
    /** base64url, as sent in the options. */
    challenge: text('challenge').notNull(),
    purpose: text('purpose', { enum: ['registration', 'login', 'admin-mfa', 'step-up'] }).notNull(),
    /** Null for a login that named no e-mail (the passkey says whose it is). */
    userId: uuid('user_id').references(() => users.id),
    action: text('action', { enum: STEP_UP_ACTIONS }),
    /** SHA-256 of the canonical JSON of the action's details; for admin-mfa, of the mfaToken. */
    bindingHash: text('binding_hash'),
    /** The name a registration will give the passkey. */
    passkeyName: text('passkey_name'),
    expiresAt: timestampTz('expires_at').notNull(),
    consumedAt: timestampTz('consumed_at'),
    createdAt: createdAtColumn(),
  },
  (table) => [
    uniqueIndex('passkey_challenges_challenge_unique').on(table.challenge),
    index('passkey_challenges_expiry_idx').on(table.expiresAt),
  ],
);

/**
 * A recovery without a passkey (e-mail and SMS codes): every passkey removed, and new payout
 * destinations wait until `payoutsHeldUntil`.
 */
export const passkeyRecoveries = pgTable(
  'passkey_recoveries',
  {
    id: idColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    passkeysRemoved: bigint('passkeys_removed', { mode: 'number' }).notNull(),
    payoutsHeldUntil: timestampTz('payouts_held_until').notNull(),
    createdAt: createdAtColumn(),
  },
  (table) => [index('passkey_recoveries_user_idx').on(table.userId, table.payoutsHeldUntil)],
);

export type PasskeyRow = typeof passkeys.$inferSelect;
export type PasskeyChallengeRow = typeof passkeyChallenges.$inferSelect;
