import { and, asc, count, desc, eq, lte } from 'drizzle-orm';
import type { Database, Transaction } from '../db/database';
import { webhookDeliveries, type WebhookDeliveryRow } from '../db/schema';
import { retryDelayMs } from '../jobs/retry-schedule';

/**
 * Stores a verified webhook before it is answered. One row per provider and delivery key: the answer
 * says whether this delivery is new (a replay of stored bytes stores nothing).
 */
export async function storeWebhook(
  db: Database,
  delivery: {
    provider: string;
    deliveryKey: string;
    rawBody: Buffer;
    headers: Record<string, string>;
    now: Date;
  },
): Promise<{ id: string } | null> {
  const [stored] = await db
    .insert(webhookDeliveries)
    .values({
      provider: delivery.provider,
      deliveryKey: delivery.deliveryKey,
      rawBody: delivery.rawBody,
      headers: delivery.headers,
      receivedAt: delivery.now,
      nextAttemptAt: delivery.now,
    })
    .onConflictDoNothing({ target: [webhookDeliveries.provider, webhookDeliveries.deliveryKey] })
    .returning({ id: webhookDeliveries.id });
  return stored ?? null;
}

/**
 * Locks a stored delivery that is still to be applied, inside the transaction that applies it; null
 * when it was applied already or another process holds it (`SKIP LOCKED`).
 */
export async function lockUnprocessedWebhook(
  tx: Transaction,
  id: string,
): Promise<WebhookDeliveryRow | null> {
  const [row] = await tx
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')))
    .for('update', { skipLocked: true });
  return row ?? null;
}

/** A stored delivery still to be applied, read without a lock (to prepare it); null once applied. */
export async function findUnprocessedWebhook(db: Database, id: string): Promise<WebhookDeliveryRow | null> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
  return row ?? null;
}

/** In the transaction that applied it: the delivery is done, and never applied again. */
export async function markWebhookProcessed(
  tx: Transaction,
  row: WebhookDeliveryRow,
  now: Date,
): Promise<void> {
  await tx
    .update(webhookDeliveries)
    .set({ status: 'processed', processedAt: now, attempts: row.attempts + 1, lastError: null })
    .where(eq(webhookDeliveries.id, row.id));
}

/** A failed try (its transaction rolled back): due again after the backoff, or parked after the last. */
export async function markWebhookTryFailed(
  db: Database,
  id: string,
  error: string,
  now: Date,
): Promise<'retry' | 'failed' | 'gone'> {
  const [row] = await db
    .select({ attempts: webhookDeliveries.attempts, status: webhookDeliveries.status })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.id, id));
  if (row?.status !== 'pending') return 'gone';
  const attempts = row.attempts + 1;
  const delay = retryDelayMs(attempts);
  await db
    .update(webhookDeliveries)
    .set(
      delay === null
        ? { status: 'failed', attempts, lastError: error }
        : { attempts, lastError: error, nextAttemptAt: new Date(now.getTime() + delay) },
    )
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
  return delay === null ? 'failed' : 'retry';
}

/** Stored deliveries due for a try, oldest first. */
export async function findDueWebhooks(db: Database, now: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), lte(webhookDeliveries.nextAttemptAt, now)))
    .orderBy(asc(webhookDeliveries.receivedAt), asc(webhookDeliveries.id))
    .limit(limit);
  return rows.map((row) => row.id);
}

export async function countWebhooksByStatus(
  db: Database,
): Promise<Record<WebhookDeliveryRow['status'], number>> {
  const rows = await db
    .select({ status: webhookDeliveries.status, count: count() })
    .from(webhookDeliveries)
    .groupBy(webhookDeliveries.status);
  const counts = { pending: 0, processed: 0, failed: 0 };
  for (const row of rows) counts[row.status] = Number(row.count);
  return counts;
}

/** Deliveries parked after their last try, most recent first. */
export async function listFailedWebhooks(db: Database, limit = 200): Promise<WebhookDeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, 'failed'))
    .orderBy(desc(webhookDeliveries.receivedAt))
    .limit(limit);
}
