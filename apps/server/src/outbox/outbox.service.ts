import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database';
import type { OutboxEventRow } from '../db/schema';
import { errorText } from '../jobs/job-queue';
import { mayHaveWrittenOutboxFor } from './outbox-writes';
import type { NotificationSender } from '../notifications/notification-sender';
import { parseRealtimeEvent, type EventBus } from '../realtime/event-bus';
import {
  claimDueOutbox,
  countPendingOutbox,
  listFailedOutbox,
  markOutboxDelivered,
  markOutboxTryFailed,
} from './outbox.repository';

/** Rows one sweep of the `deliver-outbox` job claims; the next sweep takes the rest. */
const SWEEP_BATCH = 100;
/** Rows of one user delivered right after their change commits. */
const USER_BATCH = 20;

/**
 * A message may carry `link: { label, path }`, a page of the web app. It is stored as a path and joined
 * to `PUBLIC_URL` when sent, so a row written before the site moved still points at the right place.
 */
function linkLine(publicUrl: string, link: unknown): string {
  if (typeof link !== 'object' || link === null) return '';
  const { label, path } = link as { label?: unknown; path?: unknown };
  if (typeof label !== 'string' || typeof path !== 'string' || !path.startsWith('/')) return '';
  return `\n\n${label}: ${publicUrl}${path}`;
}

export interface OutboxDeliveryResult {
  delivered: number;
  retrying: number;
  failed: number;
}

/**
 * Delivers the outbox (docs/design.md): e-mail and SMS through the mode's channels, realtime
 * events through the event bus. Each row is claimed by one deliverer; a failed try is due again after
 * an exponential backoff and parked as failed after the last (`jobs/retry-schedule.ts`).
 */
export function createOutboxService(deps: {
  db: Database;
  channels: NotificationSender;
  bus: EventBus;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** The web app's address (`PUBLIC_URL`): a message's `link` path is sent as a full address on it. */
  publicUrl: string;
  now?: () => Date;
}) {
  const { db, log } = deps;
  const now = deps.now ?? (() => new Date());

  async function deliverOne(row: OutboxEventRow): Promise<void> {
    if (row.channel === 'realtime') {
      const event = parseRealtimeEvent(row.payload);
      if (!event) throw new Error('the stored realtime event does not match the contract');
      await deps.bus.publish(row.recipient, event);
      return;
    }
    const { subject, text, link, deliveryId } = row.payload as {
      subject?: unknown;
      text?: unknown;
      link?: unknown;
      deliveryId?: unknown;
    };
    if (typeof subject !== 'string' || typeof text !== 'string')
      throw new Error('the stored message has no subject or text');
    await deps.channels[row.channel].send({
      to: row.recipient,
      subject,
      text: text + linkLine(deps.publicUrl, link),
      // Rows written before delivery ids were stored: their id and time, unique enough in one database.
      deliveryId: typeof deliveryId === 'string' ? deliveryId : `outbox-${row.id}-${row.createdAt.getTime()}`,
    });
  }

  async function deliver(rows: OutboxEventRow[]): Promise<OutboxDeliveryResult> {
    const result: OutboxDeliveryResult = { delivered: 0, retrying: 0, failed: 0 };
    for (const row of rows) {
      try {
        await deliverOne(row);
      } catch (error) {
        const outcome = await markOutboxTryFailed(db, row, errorText(error), now());
        const context = { err: error, outboxId: row.id, channel: row.channel, attempts: row.attempts };
        if (outcome === 'failed') {
          result.failed += 1;
          log.error(context, 'outbox delivery failed every try, parked');
        } else {
          result.retrying += 1;
          log.warn(context, 'outbox delivery failed, will retry');
        }
        continue;
      }
      await markOutboxDelivered(db, row.id, now());
      result.delivered += 1;
    }
    return result;
  }

  return {
    /** The `deliver-outbox` job: every due row, oldest first, in batches. */
    async deliverDue(): Promise<OutboxDeliveryResult> {
      const total: OutboxDeliveryResult = { delivered: 0, retrying: 0, failed: 0 };
      for (;;) {
        const rows = await claimDueOutbox(db, { now: now(), limit: SWEEP_BATCH });
        const result = await deliver(rows);
        total.delivered += result.delivered;
        total.retrying += result.retrying;
        total.failed += result.failed;
        if (rows.length < SWEEP_BATCH) return total;
      }
    },

    /**
     * Right after a change commits, its process delivers what it wrote for the user at once (the
     * customer waits for it); whatever fails is left to the job's retries. Never throws. Inside an
     * operation tracked by `trackOutboxWrites` that wrote nothing for the user, there is nothing to
     * claim and the database is not asked.
     */
    async deliverForUser(userId: string): Promise<void> {
      if (!mayHaveWrittenOutboxFor(userId)) return;
      try {
        await deliver(await claimDueOutbox(db, { now: now(), limit: USER_BATCH, userId }));
      } catch (error) {
        log.warn({ err: error, userId }, 'outbox delivery after commit failed; the job will retry');
      }
    },

    pending: () => countPendingOutbox(db),
    failed: () => listFailedOutbox(db),
  };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
