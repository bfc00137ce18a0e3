import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../db/database';
import type { WebhookDeliveryRow } from '../db/schema';
import { errorText, type JobQueue } from '../jobs/job-queue';
import {
  countWebhooksByStatus,
  findDueWebhooks,
  findUnprocessedWebhook,
  listFailedWebhooks,
  lockUnprocessedWebhook,
  markWebhookProcessed,
  markWebhookTryFailed,
  storeWebhook,
} from './inbox.repository';

export const PROCESS_INBOX_JOB = 'process-inbox';
/** Deliveries one sweep of the `process-inbox` job applies. */
const SWEEP_BATCH = 50;

/**
 * Applies one stored delivery inside the transaction that marks it processed; it verifies the stored
 * bytes again first. Throws to have it retried. Answers what to do once the transaction is committed
 * (deliver the notices it wrote), if anything.
 */
export type WebhookHandler<Prepared = undefined> = (
  tx: Transaction,
  delivery: StoredWebhook,
  prepared: Prepared,
) => Promise<(() => Promise<void>) | void>;

export type StoredWebhook = Pick<WebhookDeliveryRow, 'id' | 'provider' | 'headers'> & { rawBody: Buffer };

/**
 * Work on a stored delivery done before the transaction that applies it, whose answer the handler
 * gets: calls to the provider (verifying again, reading its truth back) hold no database lock.
 */
export type WebhookPreparation<Prepared> = (delivery: StoredWebhook) => Promise<Prepared>;

interface Registration {
  handler: WebhookHandler<unknown>;
  prepare: WebhookPreparation<unknown> | null;
}

/**
 * The inbox of provider webhooks (docs/design.md): a verified delivery is stored (with its
 * bytes and signature headers) before it is answered, then applied by the `process-inbox` job, sent at
 * once and swept periodically. A delivery is marked processed in the transaction that applies it, so
 * it is applied once; a failure rolls back and is retried with backoff (`jobs/retry-schedule.ts`), then
 * parked as failed. A crash between receipt and processing loses nothing: the sweep finds the row.
 */
export function createInboxService(deps: {
  db: Database;
  /** Where the job that applies a new delivery is sent; without it, only the sweep applies them. */
  queue?: Pick<JobQueue, 'send'>;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  now?: () => Date;
}) {
  const { db, log } = deps;
  const now = deps.now ?? (() => new Date());
  const handlers = new Map<string, Registration>();

  const storedDelivery = (row: WebhookDeliveryRow): StoredWebhook => {
    if (!row.rawBody) throw new Error('the stored delivery has no body');
    // The driver may hand bytes back as a plain Uint8Array.
    return { id: row.id, provider: row.provider, headers: row.headers, rawBody: Buffer.from(row.rawBody) };
  };

  async function processOne(id: string): Promise<'processed' | 'skipped' | 'retry' | 'failed'> {
    let after: (() => Promise<void>) | void = undefined;
    try {
      let prepared: unknown = undefined;
      let preparedFor: string | null = null;
      const pending = await findUnprocessedWebhook(db, id);
      if (!pending) return 'skipped';
      const registration = handlers.get(pending.provider);
      if (registration?.prepare) {
        prepared = await registration.prepare(storedDelivery(pending));
        preparedFor = pending.provider;
      }
      const applied = await db.transaction(async (tx) => {
        const row = await lockUnprocessedWebhook(tx, id);
        if (!row) return false;
        const current = handlers.get(row.provider);
        if (!current) throw new Error(`no webhook handler for ${row.provider}`);
        if (current.prepare && preparedFor !== row.provider)
          throw new Error('the delivery changed while prepared');
        after = await current.handler(tx, storedDelivery(row), prepared);
        await markWebhookProcessed(tx, row, now());
        return true;
      });
      if (!applied) return 'skipped';
    } catch (error) {
      const outcome = await markWebhookTryFailed(db, id, errorText(error), now());
      if (outcome === 'gone') return 'skipped';
      if (outcome === 'failed') log.error({ err: error, webhookId: id }, 'webhook failed every try, parked');
      else log.warn({ err: error, webhookId: id }, 'webhook processing failed, will retry');
      return outcome;
    }
    const afterCommit = after as (() => Promise<void>) | void;
    if (afterCommit) {
      await afterCommit().catch((error: unknown) =>
        log.warn({ err: error, webhookId: id }, 'after-commit step of a webhook failed'),
      );
    }
    return 'processed';
  }

  return {
    /**
     * A provider's feature says how its deliveries are applied, and what to do first outside the
     * transaction (its answer is handed to the handler).
     */
    register<Prepared = undefined>(
      provider: string,
      handler: WebhookHandler<Prepared>,
      prepare?: WebhookPreparation<Prepared>,
    ): void {
      handlers.set(provider, {
        handler: handler as WebhookHandler<unknown>,
        prepare: (prepare as WebhookPreparation<unknown> | undefined) ?? null,
      });
    },

    /**
     * Stores a delivery whose signature the caller verified, and has it applied by a job. Answers
     * `replay` when it was received before (stored, and applied or to be applied): the same
     * `deliveryKey` (a provider's event id, when it has one), else these exact bytes.
     */
    async receive(delivery: {
      provider: string;
      rawBody: Buffer;
      headers: Record<string, string>;
      deliveryKey?: string;
    }): Promise<'stored' | 'replay'> {
      const deliveryKey = delivery.deliveryKey ?? createHash('sha256').update(delivery.rawBody).digest('hex');
      const stored = await storeWebhook(db, {
        provider: delivery.provider,
        rawBody: delivery.rawBody,
        headers: delivery.headers,
        deliveryKey,
        now: now(),
      });
      if (!stored) return 'replay';
      await deps.queue
        ?.send(PROCESS_INBOX_JOB, { id: stored.id })
        .catch((error: unknown) =>
          log.warn(
            { err: error, webhookId: stored.id },
            'could not send the inbox job; the sweep will apply it',
          ),
        );
      return 'stored';
    },

    /** The `process-inbox` job: the delivery it names, else every due one. */
    async process(data: unknown): Promise<unknown> {
      const id =
        data && typeof data === 'object' && 'id' in data && typeof data.id === 'string' ? data.id : null;
      if (id) return { [id]: await processOne(id) };
      const results: Record<string, string> = {};
      for (const due of await findDueWebhooks(db, now(), SWEEP_BATCH)) results[due] = await processOne(due);
      return results;
    },

    processOne,
    counts: () => countWebhooksByStatus(db),
    failed: () => listFailedWebhooks(db),
  };
}

export type InboxService = ReturnType<typeof createInboxService>;
