import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { outboxEvents, type OutboxEventRow } from '../db/schema';
import { retryDelayMs } from '../jobs/retry-schedule';
import { noteOutboxWrite } from './outbox-writes';

/** One delivery to write: an event, a channel and a recipient (unique together). */
export interface OutboxEntry {
  eventKey: string;
  channel: OutboxEventRow['channel'];
  recipient: string;
  userId: string | null;
  payload: Record<string, unknown>;
}

/**
 * The process that commits a change delivers its rows at once (`claimDueOutbox` with its user); the
 * periodic sweep leaves fresh rows alone for this long, so it takes them only if that process died.
 */
export const FRESH_ROW_GRACE_MS = 10_000;
/**
 * A claimed row is tried again after this long if its deliverer never reported back (it crashed).
 * Above the longest send (SMTP gives up within 40 s, Twilio within 10 s), short enough that a crashed
 * worker delays a notice by about a minute.
 */
export const CLAIM_LEASE_MS = 60_000;

/**
 * Writes deliveries in the caller's transaction, so they commit (or roll back) with the change that
 * caused them. A row already written for the same event, channel and recipient is kept as it is.
 */
export async function writeOutbox(
  tx: Database | Transaction,
  entries: readonly OutboxEntry[],
  now: Date = new Date(),
): Promise<void> {
  if (entries.length === 0) return;
  // Noted before the insert: a delivery must never skip a row that might commit.
  noteOutboxWrite(entries.map((entry) => entry.userId));
  await tx
    .insert(outboxEvents)
    .values(
      entries.map((entry) => ({
        ...entry,
        // A message's delivery id (its e-mail's Message-ID), made once with the row so every try of
        // it carries the same one, and random so no other row, in this database or another, has it.
        payload:
          entry.channel === 'realtime' ? entry.payload : { ...entry.payload, deliveryId: randomUUID() },
        createdAt: now,
        nextAttemptAt: new Date(now.getTime() + FRESH_ROW_GRACE_MS),
      })),
    )
    .onConflictDoNothing({
      target: [outboxEvents.eventKey, outboxEvents.channel, outboxEvents.recipient],
    });
}

/**
 * Claims up to `limit` rows due for a try (oldest first) and counts the try: rows another deliverer
 * holds are skipped (`FOR UPDATE SKIP LOCKED`), and a claimed row is not due again until its lease
 * runs out, so each try is made by one deliverer. With `userId`, that user's pending rows not tried
 * yet are due at once (their change was just committed).
 */
export async function claimDueOutbox(
  db: Database,
  options: { now: Date; limit: number; userId?: string },
): Promise<OutboxEventRow[]> {
  const { now } = options;
  const due = options.userId
    ? and(
        eq(outboxEvents.userId, options.userId),
        or(eq(outboxEvents.attempts, 0), lte(outboxEvents.nextAttemptAt, now)),
      )
    : lte(outboxEvents.nextAttemptAt, now);
  const claimable = db
    .select({ id: outboxEvents.id })
    .from(outboxEvents)
    .where(and(eq(outboxEvents.status, 'pending'), due))
    .orderBy(asc(outboxEvents.id))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  const claimed = await db
    .update(outboxEvents)
    .set({
      attempts: sql`${outboxEvents.attempts} + 1`,
      nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS),
    })
    .where(and(inArray(outboxEvents.id, claimable), eq(outboxEvents.status, 'pending')))
    .returning();
  return claimed.sort((a, b) => a.id - b.id);
}

export async function markOutboxDelivered(db: Database, id: number, now: Date): Promise<void> {
  await db
    .update(outboxEvents)
    .set({ status: 'delivered', deliveredAt: now, lastError: null })
    .where(eq(outboxEvents.id, id));
}

/** A failed try: due again after the backoff, or parked as failed after the last try. */
export async function markOutboxTryFailed(
  db: Database,
  row: Pick<OutboxEventRow, 'id' | 'attempts'>,
  error: string,
  now: Date,
): Promise<'retry' | 'failed'> {
  const delay = retryDelayMs(row.attempts);
  await db
    .update(outboxEvents)
    .set(
      delay === null
        ? { status: 'failed', failedAt: now, lastError: error }
        : { nextAttemptAt: new Date(now.getTime() + delay), lastError: error },
    )
    .where(eq(outboxEvents.id, row.id));
  return delay === null ? 'failed' : 'retry';
}

/** Rows waiting to be delivered (not yet tried, or tried and due again). */
export async function countPendingOutbox(db: Database): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(outboxEvents)
    .where(eq(outboxEvents.status, 'pending'));
  return Number(row?.count ?? 0);
}

/** Deliveries parked after their last try, most recent first. */
export async function listFailedOutbox(db: Database, limit = 200): Promise<OutboxEventRow[]> {
  return db
    .select()
    .from(outboxEvents)
    .where(eq(outboxEvents.status, 'failed'))
    .orderBy(desc(outboxEvents.failedAt), desc(outboxEvents.id))
    .limit(limit);
}
