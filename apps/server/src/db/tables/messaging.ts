import { OUTBOX_CHANNELS } from '@offzero/shared/api/admin';
import {
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { bytea } from './columns';

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
